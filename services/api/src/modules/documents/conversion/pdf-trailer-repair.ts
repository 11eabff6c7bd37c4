// A trailer qpdf cannot recover from (no /Root, a /Root naming a missing object, a dictionary cut
// off before `>>`) while the catalog itself is in the file: browsers' readers (pdf.js, PDFium) find
// the catalog by its /Type and show the document. Here the file gets a trailer naming that catalog
// and qpdf rebuilds the cross-reference table around it; nothing else of the file is changed.

/** qpdf's messages for a file whose trailer or catalog it could not find. */
const TRAILER_FAILURE = /unable to find (?:\/Root dictionary|trailer dictionary)/i;
/** An object header followed by a dictionary, and how far into it the /Type is looked for. */
const OBJECT_HEADER = /(?:^|[\s>\]])(\d{1,10})\s+(\d{1,5})\s+obj\s*<</g;
const DICTIONARY_WINDOW = 4096;
/** Entries of the damaged trailer that say how to read the file, carried into the new one. */
const CARRIED_ENTRIES = [
  /\/Encrypt\s+\d+\s+\d+\s+R/,
  /\/ID\s*\[\s*<[0-9a-fA-F\s]*>\s*<[0-9a-fA-F\s]*>\s*\]/,
  /\/Info\s+\d+\s+\d+\s+R/,
];

export function isTrailerFailure(stderr: string): boolean {
  return TRAILER_FAILURE.test(stderr);
}

/**
 * The file with its trailers disabled and one naming the last catalog appended, or null when no
 * catalog stands in the file's plain text (one inside an object stream cannot be found this way).
 */
export function withRebuiltTrailer(bytes: Uint8Array): Uint8Array | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let catalog: string | null = null;
  for (const match of text.matchAll(OBJECT_HEADER)) {
    const start = match.index + match[0].length;
    const dictionary = text.slice(start, start + DICTIONARY_WINDOW);
    const end = dictionary.search(/\bendobj\b/);
    const body = end === -1 ? dictionary : dictionary.slice(0, end);
    // The last one wins: an incremental update appends the newer catalog.
    if (
      /\/Type\s*\/Catalog(?![^\s/[\]()<>{}%])/.test(body) &&
      /\/Pages\s+\d+\s+\d+\s+R/.test(body)
    ) {
      catalog = `${match[1]} ${match[2]} R`;
    }
  }
  if (!catalog) return null;
  const lastTrailer = text.lastIndexOf('trailer');
  const old = lastTrailer === -1 ? '' : text.slice(lastTrailer, lastTrailer + DICTIONARY_WINDOW);
  const carried = CARRIED_ENTRIES.map((entry) => entry.exec(old)?.[0]).filter(Boolean);
  // qpdf rebuilds from the first trailer it finds and reads the last startxref: the old trailers
  // become comments (same length, so no offset moves) and the new startxref points nowhere.
  const disabled = text.replace(/(^|[\s>])trailer(?=\s*<<)/g, '$1%railer');
  const trailer = `\ntrailer\n<< /Root ${catalog} ${carried.join(' ')} >>\nstartxref\n0\n%%EOF\n`;
  return Buffer.from(disabled + trailer, 'latin1');
}
