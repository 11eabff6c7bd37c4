// How a round's times read to a person (docs/rounds.md): the server's ROUND_CLOSED and
// ROUND_NOT_OPEN messages and the SPA's deadline banner use this one function, so the sentence
// the SPA writes itself equals the one the server answers with.

const DATE_PARTS: Intl.DateTimeFormatOptions = { month: 'long', day: 'numeric', year: 'numeric' };
const TIME_PARTS: Intl.DateTimeFormatOptions = {
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};

/**
 * A moment in the institution's time zone, e.g. "January 15, 2027 at 11:59 PM CST". The date and
 * the time are formatted apart and joined with " at " (ICU versions differ in how they join them
 * and in the space before "PM": some write U+202F), so Node and every browser write the same text.
 */
export function formatRoundTime(iso: string | Date, timeZone: string): string {
  const moment = typeof iso === 'string' ? new Date(iso) : iso;
  const date = new Intl.DateTimeFormat('en-US', { ...DATE_PARTS, timeZone }).format(moment);
  const time = new Intl.DateTimeFormat('en-US', { ...TIME_PARTS, timeZone }).format(moment);
  return `${date} at ${time}`.replace(/[\u00a0\u202f]/g, ' ');
}
