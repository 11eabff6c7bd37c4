// Display and as-you-type formatting shared by the inputs, the print view and the PDF.

/** docs/validation.md: (NXX) NXX-XXXX, area code and exchange starting 2-9. */
export const PHONE_PATTERN = /^\([2-9]\d{2}\) [2-9]\d{2}-\d{4}$/;
export const SSN_PATTERN = /^\d{3}-\d{2}-\d{4}$/;

function digitsOf(value: string, max: number): string {
  return value.replace(/\D/g, '').slice(0, max);
}

/** Formats whatever has been typed so far: '2175' → '(217) 5', ten digits → '(217) 555-0100'. */
export function formatPhone(input: string): string {
  const d = digitsOf(input, 10);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)}) ${d.slice(3)}`;
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`;
}

/** Formats typed digits as NNN-NN-NNNN, as far as they go. */
export function formatSsn(input: string): string {
  const d = digitsOf(input, 9);
  if (d.length <= 3) return d;
  if (d.length <= 5) return `${d.slice(0, 3)}-${d.slice(3)}`;
  return `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`;
}

export const CHECKED_DISPLAY = '[X]';
export const UNCHECKED_DISPLAY = '[ ]';

/** Checkbox answers are stored as 'true'; anything else reads as unticked. */
export function isChecked(value: string | boolean | undefined): boolean {
  return value === true || value === 'true';
}

/** docs/data-model.md display strings for a checkbox in the print view. */
export function formatCheckbox(value: string | boolean | undefined): string {
  return isChecked(value) ? CHECKED_DISPLAY : UNCHECKED_DISPLAY;
}
