// How a round's time is written to people: the deadline in a refusal, the banner, the CLI's list
// and the staff table all say it the same way, in the institution's time zone.

/** "January 15, 2027 at 11:59 PM CST": an instant in `timeZone` (an IANA zone). */
export function formatRoundTime(at: string | Date, timeZone: string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  return new Intl.DateTimeFormat('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  }).format(date);
}
