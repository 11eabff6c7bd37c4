// Text an applicant typed is shown to staff (print view, PDF cover and rows). Unicode's bidi
// embedding, override and isolate controls would let a name or file name reorder what is shown
// around it — "Smith\u202Eevil" prints the rest of the line backwards — so they are removed
// before display. Right-to-left scripts still display correctly: their direction comes from the
// letters themselves, not from these invisible controls.
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** `text` without bidi control characters (U+202A–202E, U+2066–2069, U+200E/200F, U+061C). */
export function stripBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
