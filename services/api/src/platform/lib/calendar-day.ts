/** YYYY-MM-DD naming a day that exists (a leap year's 29 February included). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00.000Z`);
  // Date rolls 2024-02-30 over to 1 March; only a real day comes back as written.
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}
