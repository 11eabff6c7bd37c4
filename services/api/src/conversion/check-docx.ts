// The docx zip is inspected before LibreOffice sees it (GUIDE §3.10): a bounded number of
// entries, bounded sizes and ratios (measured while inflating, not taken from the headers), no
// macros, no embedded or linked objects, and no links to anything outside the document.
import { inflateRawSync } from 'node:zlib';
import { DocumentRejectedError } from './conversion-errors';
import { listZipEntries, readEntryData } from './zip-entries';

export const DOCX_LIMITS = {
  maxEntries: 1000,
  /** Uncompressed bytes of any one entry. */
  maxEntryBytes: 16 * 1024 * 1024,
  /** Uncompressed bytes of the whole package. */
  maxTotalBytes: 32 * 1024 * 1024,
  /** Compression ratio allowed for entries bigger than ratioFloorBytes (the bomb in GUIDE §6 is ~280). */
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

const DOCX_MAIN =
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';

// Parts that carry code or other documents: VBA projects, ActiveX, OLE objects, embedded packages.
// Printer settings are the one binary part Word writes into ordinary documents.
const FORBIDDEN_PART =
  /(^|\/)(vbaProject\.bin|vbaData\.xml)$|^word\/(activeX|embeddings)\/|^(?!word\/printerSettings\/).*\.bin$|\.(docm|dotm|xlsm)$/i;

// Relationship types that pull in foreign content (altChunk imports another file wholesale).
const FORBIDDEN_RELATIONSHIP =
  /\/(aFChunk|oleObject|package|control|attachedTemplate|subDocument|vbaProject|externalLinkPath|frame|wordVbaData|keyMapCustomizations|activeXControlBinary)"/i;

// Field codes that read other files or talk to other programs when updated.
const FORBIDDEN_FIELD = /\b(INCLUDETEXT|INCLUDEPICTURE|INCLUDE|LINK|DDE|DDEAUTO|IMPORT|EMBED)\b/;

function reject(code: 'UNREADABLE' | 'UNSAFE_CONTENT' | 'TOO_COMPLEX', detail: string): never {
  throw new DocumentRejectedError(code, detail);
}

function inflateEntry(data: Uint8Array, method: number, limit: number, name: string): Buffer {
  if (method === 0) return Buffer.from(data);
  if (method !== 8) reject('UNREADABLE', `unsupported compression ${method} in ${name}`);
  try {
    return inflateRawSync(data, { maxOutputLength: limit });
  } catch (error) {
    if (
      error instanceof RangeError ||
      (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
    ) {
      reject('TOO_COMPLEX', `${name} inflates past ${limit} bytes`);
    }
    reject('UNREADABLE', `${name} does not inflate`);
  }
}

/** Checks a docx's zip; throws DocumentRejectedError with the reason. */
export function checkDocx(bytes: Uint8Array): void {
  const entries = listZipEntries(bytes, DOCX_LIMITS.maxEntries);
  if (!entries) reject('UNREADABLE', 'no readable zip directory');
  if (entries.length > DOCX_LIMITS.maxEntries) reject('TOO_COMPLEX', `${entries.length} entries`);
  let total = 0;
  const xml = new Map<string, string>();
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith('/') || name.split('/').includes('..') || name.includes('\\')) {
      reject('UNSAFE_CONTENT', `entry path ${name}`);
    }
    if (entry.flags & 1) reject('UNREADABLE', `encrypted entry ${name}`);
    if (FORBIDDEN_PART.test(name)) reject('UNSAFE_CONTENT', `part ${name}`);
    if (name.endsWith('/')) continue;
    const data = readEntryData(bytes, entry);
    if (!data) reject('UNREADABLE', `entry ${name} out of bounds`);
    const remaining = DOCX_LIMITS.maxTotalBytes - total;
    const limit = Math.min(DOCX_LIMITS.maxEntryBytes, remaining) + 1;
    const inflated = inflateEntry(data, entry.method, limit, name);
    if (inflated.length >= limit) reject('TOO_COMPLEX', `${name} too large`);
    total += inflated.length;
    if (
      inflated.length > DOCX_LIMITS.ratioFloorBytes &&
      inflated.length / Math.max(1, data.length) > DOCX_LIMITS.maxRatio
    ) {
      reject('TOO_COMPLEX', `${name} ratio ${Math.round(inflated.length / data.length)}`);
    }
    if (/\.(xml|rels)$/i.test(name)) xml.set(name, inflated.toString('utf8'));
  }

  const contentTypes = xml.get('[Content_Types].xml');
  if (!contentTypes || !xml.has('word/document.xml')) reject('UNREADABLE', 'not a Word document');
  // A .docm/.dotm renamed .docx declares its main part as macro-enabled.
  if (/macroEnabled|vbaProject|ms-office\.activeX|oleObject/i.test(contentTypes)) {
    reject('UNSAFE_CONTENT', 'macro-enabled or object content types');
  }
  if (!contentTypes.includes(DOCX_MAIN)) reject('UNREADABLE', 'main part is not a docx document');

  for (const [name, text] of xml) {
    if (name.endsWith('.rels')) {
      for (const rel of text.match(/<Relationship\b[^>]*>/g) ?? []) {
        const external = /TargetMode\s*=\s*"External"/i.test(rel);
        const hyperlink = /\/hyperlink"/i.test(rel);
        // A clickable hyperlink is fine in a PDF; any other external target is content fetched
        // from elsewhere (images, templates, OLE links: the CVE-2020-27603 pattern).
        if (external && !hyperlink) reject('UNSAFE_CONTENT', `external relationship in ${name}`);
        if (FORBIDDEN_RELATIONSHIP.test(rel)) reject('UNSAFE_CONTENT', `relationship in ${name}`);
        const target = /Target\s*=\s*"([^"]*)"/i.exec(rel)?.[1] ?? '';
        if (!hyperlink && /^[a-z][a-z0-9+.-]*:|^\/\/|^\\\\/i.test(target)) {
          reject('UNSAFE_CONTENT', `relationship target ${target.slice(0, 40)} in ${name}`);
        }
      }
    } else if (name.startsWith('word/')) {
      if (
        /<w:altChunk\b|<o:OLEObject\b|<w:object\b[^>]*>\s*<o:OLEObject|<w:control\b/i.test(text)
      ) {
        reject('UNSAFE_CONTENT', `embedded object in ${name}`);
      }
      const instructions = [
        ...text.matchAll(/<w:instrText\b[^>]*>([^<]*)</g),
        ...text.matchAll(/w:instr\s*=\s*"([^"]*)"/g),
      ].map((m) => m[1] ?? '');
      // Field codes can be split over runs; join them before looking.
      if (FORBIDDEN_FIELD.test(instructions.join(' ').toUpperCase())) {
        reject('UNSAFE_CONTENT', `linking field in ${name}`);
      }
    }
  }
}
