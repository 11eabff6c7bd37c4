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
  const { date, time } = readFormatters(timeZone);
  return `${date.format(moment)} at ${time.format(moment)}`.replace(/[\u00a0\u202f]/g, ' ');
}

// Building a time-zone formatter costs far more than using one, and after a deadline every
// refused save writes this sentence: one pair per time zone (an institution has one).
const formatters = new Map<string, { date: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

function readFormatters(timeZone: string) {
  let pair = formatters.get(timeZone);
  if (!pair) {
    pair = {
      date: new Intl.DateTimeFormat('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone,
      }),
      time: new Intl.DateTimeFormat('en-US', {
        hour: 'numeric',
        minute: '2-digit',
        timeZoneName: 'short',
        timeZone,
      }),
    };
    formatters.set(timeZone, pair);
  }
  return pair;
}
