// How a round's times read to a person: in the institution's time zone, the same words in the
// API's refusals, the SPA's banner and the rounds CLI.

/**
 * A moment as "January 15, 2027 at 11:59 PM CST" in the IANA time zone `timeZone`. Built from
 * Intl's parts rather than its dateStyle/timeStyle, which cannot carry the zone's name and whose
 * spaces (a narrow no-break space before "PM" in recent ICU) vary between runtimes.
 */
export function formatRoundTime(iso: string | Date, timeZone: string): string {
  const at = typeof iso === 'string' ? new Date(iso) : iso;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZoneName: 'short',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return (
    `${part('month')} ${part('day')}, ${part('year')} at ` +
    `${part('hour')}:${part('minute')} ${part('dayPeriod').toUpperCase()} ${part('timeZoneName')}`
  );
}
