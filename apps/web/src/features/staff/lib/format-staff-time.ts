/**
 * A moment as the staff pages show it ("Nov 20, 2026, 10:00 AM", the browser's time zone): the
 * exports list and the webhook log read alike.
 */
export function formatStaffTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
