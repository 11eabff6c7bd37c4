// How a round's times read to a person (docs/rounds.md): the server's ROUND_CLOSED and
// ROUND_NOT_OPEN messages and the SPA's deadline banner use this one function, so the sentence
// the SPA writes itself equals the one the server answers with.

/**
 * A moment in the institution's time zone, e.g. "January 15, 2027 at 11:59 PM CST". The date and
 * the time are formatted apart and joined with " at " (ICU versions differ in how they join them
 * and in the space before "PM": some write U+202F), so Node and every browser write the same text.
 */
export function formatRoundTime(iso: string | Date, timeZone: string): string {
  const moment = new Date(iso);
  const write = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(moment);
  const date = write({ month: 'long', day: 'numeric', year: 'numeric' });
  const time = write({ hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
  return `${date} at ${time}`.replace(/[\u00a0\u202f]/g, ' ');
}
