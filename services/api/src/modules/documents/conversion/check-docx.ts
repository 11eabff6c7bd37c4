// The docx package is inspected, bounded and REWRITTEN before LibreOffice sees it
// (docs/design-decisions.md, 10): what could reach outside the document or run code is taken
// out and the rest is shown, so a file is refused only when it cannot be shown safely at all.
// A pure function of the bytes (the sandbox pool runs it in a child process):
//   - the zip: a bounded number of entries, sizes and ratios measured while inflating (the
//     central directory is read by zip-entries.ts and every entry inflated by zlib with an
//     output cap: fflate's unzipSync sizes its buffers from the sizes the archive declares);
//   - every XML part parsed with a real XML parser (saxes: namespaces resolved, so a prefix other
//     than w:/r: or single-quoted attributes change nothing; no DOCTYPE, so no entity expansion);
//   - what LibreOffice gets is built from the relationships, starting at the package's root: a
//     part nothing keeps is left out (custom XML, orphans); each part is judged by its
//     relationship type and its declared content type ([Content_Types].xml), never its name;
//   - taken out, the document still shown: OLE objects and ActiveX controls (their binary goes,
//     the picture Word stores beside them stays), a chart's embedded workbook (the chart is drawn
//     from its cached values), macros in a document whose main part is a plain .docx, the
//     template link, comments, every external relationship but a hyperlink used as one (linked
//     pictures leave an empty frame and a note for staff), the instruction of fields that would
//     read other files (their last result stays);
//   - refused: a macro-enabled main part (.docm), altChunk and sub-documents, DOCTYPEs, SVG links,
//     and structures that hold LibreOffice for the whole time-out (deep nesting, thousands of
//     tables, pictures too large to decode).
import { Zip, strToU8, type ZipInputFile } from 'fflate';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { isCompoundFile, isEncryptedOfficePackage } from './compound-file';
import { DocumentRejectedError } from './conversion-errors';
import { readImageDimensions } from './image-dimensions';
import { DOCUMENT_LIMITS, DOCX_STRUCTURE_LIMITS } from './limits';
import { listZipEntries, readEntryData } from './zip-entries';

export const DOCX_LIMITS = {
  maxEntries: 1000,
  /** Uncompressed bytes of any one entry. */
  maxEntryBytes: 16 * 1024 * 1024,
  /** Uncompressed bytes of the whole package. */
  maxTotalBytes: 32 * 1024 * 1024,
  /** Compression ratio allowed for entries bigger than ratioFloorBytes (the Word bomb in BENCHMARKS.md's early measurements is far above it). */
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

const DOCX_MAIN =
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
// Strict OOXML (ISO 29500 Strict) names the same vocabulary differently; LibreOffice imports both,
// so both are checked as one.
const W_STRICT_NS = 'http://purl.oclc.org/ooxml/wordprocessingml/main';
const R_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  'http://purl.oclc.org/ooxml/officeDocument/relationships',
]);
const VML_OFFICE_NS = 'urn:schemas-microsoft-com:office:office';
const PKG_RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SVG_NS = 'http://www.w3.org/2000/svg';
const CT_NS = 'http://schemas.openxmlformats.org/package/2006/content-types';

const lower = (types: string[]) => new Set(types.map((t) => t.toLowerCase()));

// Relationship types (the last path segment) taken out with the part they name. Objects and
// controls: the picture Word keeps beside them stays in the text. A chart's `package` is its data
// workbook (the chart is drawn from its cached values). Custom XML: data for other programs,
// nothing shows it. Comments: notes to the author, and their margin crashes the headless
// LibreOffice. The template is never fetched.
const DROPPED_RELATIONSHIP = lower([
  'oleObject',
  'package',
  'control',
  'activeXControl',
  'activeXControlBinary',
  'vbaProject',
  'wordVbaData',
  'keyMapCustomizations',
  'attachedTemplate',
  'customXml',
  'customXmlProps',
  'printerSettings',
  'aFChunk',
  'subDocument',
  'frame',
  'externalLinkPath',
  'comments',
  'commentsExtended',
  'commentsIds',
  'commentsExtensible',
  'people',
]);
const MACRO_RELATIONSHIP = lower(['vbaProject', 'wordVbaData', 'keyMapCustomizations']);
// Declared content types of parts never handed on, whatever relationship names them.
const DROPPED_CONTENT_TYPE =
  /oleObject|activeX|vbaProject|vbaData|keyMapCustomizations|customXmlProperties|printerSettings/i;
const MACRO_CONTENT_TYPE = /vbaProject|vbaData|keyMapCustomizations/i;
// Relationships to pictures: their target must be declared a picture (or not declared at all,
// which LibreOffice sniffs); a picture relationship to a part declared as anything else is cut.
const PICTURE_RELATIONSHIP = lower(['image', 'hdphoto', 'thumbnail']);
// Relationship types whose target LibreOffice reads as something other than XML. A target of any
// other type is parsed (and checked) as XML whatever its name: the main document or a header may
// be a part called word/x.dat.
const BINARY_RELATIONSHIP = lower([
  'image',
  'font',
  'thumbnail',
  'video',
  'audio',
  'media',
  'hdphoto',
]);
// Elements that name a picture by a relationship id (a hyperlink id used there would be fetched).
const PICTURE_ELEMENT = new Set(['blip', 'imagedata', 'fill', 'svgBlip', 'linkedTxbx']);

// Field codes that read other files or talk to other programs when updated: their instruction
// is cut, so the last result Word saved is shown as plain text.
const LINKING_FIELD =
  /^(INCLUDETEXT|INCLUDEPICTURE|INCLUDE|LINK|DDE|DDEAUTO|IMPORT|EMBED|DATABASE|AUTOTEXTLIST)$/;

// WordprocessingML elements that insert other documents: refused (nothing to show instead).
const FORBIDDEN_W_ELEMENT = new Set(['altChunk', 'subDoc']);
// Inside a w:object: what makes it an object or a control rather than its picture.
const OBJECT_PAYLOAD_W = new Set(['control', 'objectEmbed', 'objectLink']);
// Comment anchors in the text; removed with the comments themselves.
const COMMENT_ANCHOR = new Set(['commentRangeStart', 'commentRangeEnd', 'commentReference']);

/** What staff read on the first page of the converted document when something was left out. */
export const DOCX_NOTES = {
  linkedPicture:
    'Note: a picture this document links from outside it was left out (linked content is never fetched).',
  macros: 'Note: macros in the uploaded document were removed.',
} as const;

type Code = 'UNREADABLE' | 'UNSAFE_CONTENT' | 'TOO_COMPLEX' | 'DOCX_ENCRYPTED' | 'IMAGE_TOO_LARGE';
function reject(code: Code, detail: string): never {
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

interface Relationship {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

/** The last segment of the type, lower-cased: transitional and strict types end alike. */
function relationshipType(rel: Relationship): string {
  return rel.type.slice(rel.type.lastIndexOf('/') + 1).toLowerCase();
}

function resolveTarget(dir: string, target: string): string {
  const parts = (target.startsWith('/') ? target.slice(1) : dir + target).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

function serializeRelationships(relationships: Relationship[]): string {
  const items = relationships
    .map(
      (r) =>
        `<Relationship Id="${escapeAttribute(r.id)}" Type="${escapeAttribute(r.type)}" Target="${escapeAttribute(r.target)}"${r.external ? ' TargetMode="External"' : ''}/>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${PKG_RELS_NS}">${items}</Relationships>`;
}

interface Counters {
  tables: number;
  paragraphs: number;
  runs: number;
  xmlBytes: number;
}

/** A change to a part's text: [start, end) replaced by `text`. */
type Edit = [start: number, end: number, text: string];

interface ParsedPart {
  relationships?: Relationship[];
  /** Relationship ids this part uses for something other than a hyperlink (an image, a frame…). */
  contentReferences: { id: string; picture: boolean }[];
  /** [Content_Types].xml: Default extensions and Override part names with their types. */
  defaults?: Map<string, string>;
  overrides?: Map<string, string>;
  edits: Edit[];
}

interface OpenElement {
  start: number;
  openEnd: number;
  /** What happens to the element once it closes. */
  action?: 'cut' | 'object' | 'unwrap';
  /** A w:object that holds DrawingML (unwrapped rather than made a w:pict). */
  holdsDrawing?: boolean;
  prefix?: string;
}

interface OpenField {
  instruction: string;
  /** [start, end) of the text of each of its w:instrText elements. */
  ranges: [number, number][];
  /** Its instruction is complete (the result, or the end, began). */
  done: boolean;
}

/** Parses one XML part, enforcing the structure bounds and noting what to take out of it. */
function parseXmlPart(name: string, text: string, counters: Counters): ParsedPart {
  const limits = DOCX_STRUCTURE_LIMITS;
  const parser = new SaxesParser({ xmlns: true, position: true });
  const isRels = name.endsWith('.rels');
  const result: ParsedPart = { edits: [], contentReferences: [] };
  const relationships: Relationship[] = [];
  const defaults = new Map<string, string>();
  const overrides = new Map<string, string>();
  const open: OpenElement[] = [];
  let tableDepth = 0;
  // Runs of each open paragraph (a text box holds paragraphs inside a run of another).
  const paragraphRuns: number[] = [];
  // Complex fields nest: one entry per open field, plus the w:instrText being read.
  const fields: OpenField[] = [];
  let instrText: { text: string; start: number } | undefined;

  /** True for an instruction that reads other files (its text is then cut). */
  const isLinking = (instruction: string) => {
    // LibreOffice unquotes the field's first token too: "INCLUDEPICTURE" is the same field.
    const keyword = (instruction.trim().split(/\s+/)[0] ?? '').replace(/"/g, '').toUpperCase();
    return LINKING_FIELD.test(keyword);
  };
  const closeInstruction = (field: OpenField) => {
    if (isLinking(field.instruction)) {
      for (const [start, end] of field.ranges) result.edits.push([start, end, '']);
    }
  };
  const tagStart = () => text.lastIndexOf('<', parser.position - 1);

  parser.on('doctype', () => reject('UNSAFE_CONTENT', `DOCTYPE in ${name}`));
  parser.on('error', (error) => reject('UNREADABLE', `${name}: ${error.message.slice(0, 200)}`));
  parser.on('opentag', (tag: SaxesTagNS) => {
    const element: OpenElement = { start: tagStart(), openEnd: parser.position };
    open.push(element);
    if (open.length > limits.maxElementDepth) reject('TOO_COMPLEX', `nesting depth in ${name}`);
    const attr = (uri: string, local: string) =>
      Object.values(tag.attributes).find((a) => a.uri === uri && a.local === local)?.value;
    if (isRels) {
      if (tag.uri === PKG_RELS_NS && tag.local === 'Relationship') {
        relationships.push({
          id: attr('', 'Id') ?? '',
          type: attr('', 'Type') ?? '',
          target: attr('', 'Target') ?? '',
          external: (attr('', 'TargetMode') ?? '').trim().toLowerCase() === 'external',
        });
      }
      return;
    }
    if (tag.uri === CT_NS && (tag.local === 'Default' || tag.local === 'Override')) {
      const type = attr('', 'ContentType') ?? '';
      if (tag.local === 'Default') defaults.set((attr('', 'Extension') ?? '').toLowerCase(), type);
      else overrides.set((attr('', 'PartName') ?? '').replace(/^\//, '').toLowerCase(), type);
      return;
    }
    // An SVG picture (Word 2016+ writes them for icons) that names a file or URL would have
    // LibreOffice's SVG import fetch it; only fragments and inline data are drawn.
    if (tag.uri === SVG_NS) {
      for (const a of Object.values(tag.attributes)) {
        if (a.local === 'href' && !/^\s*(#|data:)/i.test(a.value)) {
          reject('UNSAFE_CONTENT', `SVG link ${a.value.slice(0, 40)} in ${name}`);
        }
      }
    }
    // The object itself (its ProgID and binary); the VML picture beside it stays.
    if (tag.uri === VML_OFFICE_NS && tag.local === 'OLEObject') element.action = 'cut';
    // LibreOffice looks a relationship up by id whatever its type, so an external hyperlink
    // named by an image (a:blip r:link, v:imagedata r:id) would be fetched as that image.
    const isHyperlink = tag.local === 'hyperlink' || tag.local.startsWith('hlink');
    if (!isHyperlink) {
      for (const a of Object.values(tag.attributes)) {
        if (R_NAMESPACES.has(a.uri) || (a.uri === VML_OFFICE_NS && a.local === 'relid')) {
          result.contentReferences.push({
            id: a.value.trim(),
            picture: PICTURE_ELEMENT.has(tag.local),
          });
        }
      }
    }
    if (tag.uri !== W_NS && tag.uri !== W_STRICT_NS) return;
    if (FORBIDDEN_W_ELEMENT.has(tag.local)) reject('UNSAFE_CONTENT', `w:${tag.local} in ${name}`);
    if (OBJECT_PAYLOAD_W.has(tag.local)) {
      element.action = 'cut';
      return;
    }
    switch (tag.local) {
      case 'object':
        element.action = 'object';
        element.prefix = tag.prefix;
        break;
      case 'drawing': {
        const object = open.findLast((e) => e.action === 'object');
        if (object) object.holdsDrawing = true;
        break;
      }
      case 'tbl':
        if (++counters.tables > limits.maxTables) reject('TOO_COMPLEX', 'number of tables');
        if (++tableDepth > limits.maxTableNesting) reject('TOO_COMPLEX', 'table nesting');
        break;
      case 'p':
        if (++counters.paragraphs > limits.maxParagraphs) {
          reject('TOO_COMPLEX', 'number of paragraphs');
        }
        paragraphRuns.push(0);
        break;
      case 'r':
        if (++counters.runs > limits.maxRuns) reject('TOO_COMPLEX', 'number of runs');
        if (paragraphRuns.length > 0) {
          const last = paragraphRuns.length - 1;
          if (++paragraphRuns[last]! > limits.maxRunsPerParagraph) {
            reject('TOO_COMPLEX', `runs in one paragraph of ${name}`);
          }
        }
        break;
      case 'fldChar': {
        const type = attr(tag.uri, 'fldCharType');
        // The instruction is complete once the result (separate) or the end begins; after a
        // separate the field stays open (done) until its end.
        if (type === 'begin') fields.push({ instruction: '', ranges: [], done: false });
        else if (type === 'separate' || type === 'end') {
          const field = fields.pop();
          if (field && !field.done) closeInstruction(field);
          if (type === 'separate' && field) fields.push({ ...field, done: true });
        }
        break;
      }
      case 'instrText':
      case 'delInstrText': // a deleted instruction is still a field LibreOffice imports
        instrText = { text: '', start: parser.position };
        break;
      case 'fldSimple':
        // The field's element goes, its result (the runs inside) stays.
        if (isLinking(attr(tag.uri, 'instr') ?? '')) element.action = 'unwrap';
        break;
      default:
        if (COMMENT_ANCHOR.has(tag.local)) element.action = 'cut';
    }
  });
  const readText = (chunk: string) => {
    if (instrText !== undefined) instrText.text += chunk;
  };
  parser.on('text', readText);
  // LibreOffice's parser hands a CDATA section over as ordinary text.
  parser.on('cdata', readText);
  parser.on('closetag', (tag: SaxesTagNS) => {
    const element = open.pop()!;
    const end = parser.position;
    const closeStart = tag.isSelfClosing ? end : tagStart();
    switch (element.action) {
      case 'cut':
        result.edits.push([element.start, end, '']);
        break;
      case 'unwrap':
        result.edits.push([element.start, element.openEnd, ''], [closeStart, end, '']);
        break;
      case 'object':
        if (tag.isSelfClosing) result.edits.push([element.start, end, '']);
        else if (element.holdsDrawing) {
          result.edits.push([element.start, element.openEnd, ''], [closeStart, end, '']);
        } else {
          // VML in a run must sit in a w:pict: the object's picture becomes an ordinary one.
          const pict = element.prefix ? `${element.prefix}:pict` : 'pict';
          result.edits.push(
            [element.start, element.openEnd, `<${pict}>`],
            [closeStart, end, `</${pict}>`],
          );
        }
        break;
    }
    if (tag.uri !== W_NS && tag.uri !== W_STRICT_NS) return;
    if (tag.local === 'tbl') tableDepth--;
    else if (tag.local === 'p') paragraphRuns.pop();
    else if (
      (tag.local === 'instrText' || tag.local === 'delInstrText') &&
      instrText !== undefined
    ) {
      const range: [number, number] = [instrText.start, closeStart];
      const field = fields.at(-1);
      // An instrText outside any field is still an instruction Word would run: judged alone.
      if (!field || field.done) {
        closeInstruction({ instruction: instrText.text, ranges: [range], done: false });
      } else {
        field.instruction += instrText.text;
        if (!tag.isSelfClosing) field.ranges.push(range);
      }
      instrText = undefined;
    }
  });
  parser.write(text).close();
  // Fields whose separate/end never came: still judge what was written.
  for (const field of fields) if (!field.done) closeInstruction(field);
  if (isRels) result.relationships = relationships;
  if (name === '[Content_Types].xml') {
    result.defaults = defaults;
    result.overrides = overrides;
  }
  return result;
}

// Encodings in which markup is spelled in the same bytes as in UTF-8 (or UTF-16, read by its
// byte-order mark). LibreOffice honours any declared encoding it knows, UTF-7 included, in which
// `+ADw-` is a `<` this check would read as text.
const SAFE_ENCODING = /^(utf-?8|utf-?16|us-ascii|ascii|iso-8859-1|latin1|windows-1252)$/i;

/** UTF-8 unless a byte-order mark says UTF-16 (both are allowed in OOXML parts). */
function decodeXml(name: string, data: Uint8Array): string {
  let text: string;
  if (data[0] === 0xff && data[1] === 0xfe) text = new TextDecoder('utf-16le').decode(data);
  else if (data[0] === 0xfe && data[1] === 0xff) text = new TextDecoder('utf-16be').decode(data);
  else text = new TextDecoder('utf-8').decode(data);
  const declared = /^\uFEFF?<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/.exec(text)?.[1];
  if (declared !== undefined && !SAFE_ENCODING.test(declared.trim())) {
    reject('UNREADABLE', `${name} declares encoding ${declared.slice(0, 40)}`);
  }
  return text;
}

/** Text re-encoded as UTF-8, so its declaration must not claim another encoding. */
function encodeXml(text: string): Uint8Array {
  return strToU8(text.replace(/^(<\?xml[^>]*?)\s+encoding\s*=\s*(["'])[^"']*\2/, '$1'));
}

/**
 * An XML declaration, an SVG root or a DOCTYPE at the start (after a byte-order mark and white
 * space), whatever the part is called: an obfuscated font's random bytes never spell these.
 */
function looksLikeXml(data: Uint8Array): boolean {
  const head = data.subarray(0, 256);
  let text: string;
  if (head[0] === 0xff && head[1] === 0xfe) text = new TextDecoder('utf-16le').decode(head);
  else if (head[0] === 0xfe && head[1] === 0xff) text = new TextDecoder('utf-16be').decode(head);
  else text = new TextDecoder('utf-8').decode(head);
  return /^\uFEFF?\s*<(\?xml|svg|!doctype)/i.test(text);
}

/** A truncated zip: the local header of a Word part at the start but no central directory. */
export function looksLikeTruncatedDocx(bytes: Uint8Array): boolean {
  if (
    bytes.length < 30 ||
    bytes[0] !== 0x50 ||
    bytes[1] !== 0x4b ||
    bytes[2] !== 3 ||
    bytes[3] !== 4
  ) {
    return false;
  }
  const nameLength = bytes[26]! | (bytes[27]! << 8);
  const name = Buffer.from(bytes.subarray(30, 30 + nameLength)).toString('latin1');
  return name === '[Content_Types].xml' || /^(word|_rels|docProps)\//.test(name);
}

/** Edits applied to a part's text; an edit inside one already applied (nested cuts) is skipped. */
function applyEdits(text: string, edits: Edit[]): string {
  if (edits.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end, replacement] of [...edits].sort((a, b) => a[0] - b[0] || b[1] - a[1])) {
    if (start < at) continue;
    out += text.slice(at, start) + replacement;
    at = end;
  }
  return out + text.slice(at);
}

/** The relationships part of a part: word/document.xml → word/_rels/document.xml.rels. */
function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf('/') + 1;
  return `${part.slice(0, slash)}_rels/${part.slice(slash)}.rels`;
}

/** What LibreOffice gets, and what staff should be told about what was left out. */
export interface RewrittenDocx {
  pkg: Uint8Array;
  /** Sentences for the first page of the converted document (DOCX_NOTES). */
  notes: string[];
}

/**
 * Checks a docx and returns the package to hand to LibreOffice (see the top of this file for
 * what is taken out); throws DocumentRejectedError with the reason when it cannot be shown.
 */
export function rewriteDocx(bytes: Uint8Array): RewrittenDocx {
  if (isCompoundFile(bytes)) {
    if (isEncryptedOfficePackage(bytes)) reject('DOCX_ENCRYPTED', 'EncryptedPackage stream');
    reject('UNREADABLE', 'a compound file that is not an encrypted Word document');
  }
  const entries = listZipEntries(bytes, DOCX_LIMITS.maxEntries);
  if (!entries) reject('UNREADABLE', 'no readable zip directory');
  if (entries.length > DOCX_LIMITS.maxEntries) reject('TOO_COMPLEX', `${entries.length} entries`);
  let total = 0;
  const files = new Map<string, Uint8Array>();
  // Each entry as it came (compressed), handed on unchanged when the part is.
  const stored = new Map<string, { data: Uint8Array; method: 0 | 8 }>();
  for (const entry of entries) {
    const name = entry.name;
    if (name.startsWith('/') || name.split('/').includes('..') || name.includes('\\')) {
      reject('UNSAFE_CONTENT', `entry path ${name}`);
    }
    if (entry.flags & 1) reject('UNREADABLE', `encrypted entry ${name}`);
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
    if (files.has(name)) reject('UNREADABLE', `duplicate entry ${name}`);
    files.set(name, inflated);
    stored.set(name, { data, method: entry.method === 0 ? 0 : 8 });
  }
  if (!files.has('[Content_Types].xml') || !files.has('word/document.xml')) {
    reject('UNREADABLE', 'not a Word document');
  }

  const counters: Counters = { tables: 0, paragraphs: 0, runs: 0, xmlBytes: 0 };
  const parsed = new Map<string, { text: string; part: ParsedPart }>();
  const parse = (name: string) => {
    const data = files.get(name);
    if (!data || parsed.has(name)) return;
    counters.xmlBytes += data.length;
    if (counters.xmlBytes > DOCX_STRUCTURE_LIMITS.maxXmlBytes) reject('TOO_COMPLEX', 'XML size');
    const text = decodeXml(name, data);
    parsed.set(name, { text, part: parseXmlPart(name, text, counters) });
  };
  parse('[Content_Types].xml');
  const types = parsed.get('[Content_Types].xml')!.part;
  const contentTypeOf = (part: string): string | undefined => {
    const lowered = part.toLowerCase();
    const extension = lowered.slice(lowered.lastIndexOf('.') + 1);
    return types.overrides?.get(lowered) ?? types.defaults?.get(extension);
  };

  // The package LibreOffice gets: the parts reached from the root through kept relationships.
  const included = new Set<string>(['[Content_Types].xml']);
  const keptRelationships = new Map<string, Relationship[]>();
  const notes = new Set<string>();
  let mainParts = 0;
  const queue = [''];
  for (let next = 0; next < queue.length; next++) {
    const source = queue[next]!;
    const relsName = source === '' ? '_rels/.rels' : relationshipsPartOf(source);
    if (!files.has(relsName)) continue;
    parse(relsName);
    included.add(relsName);
    const dir = source.slice(0, source.lastIndexOf('/') + 1);
    const all = parsed.get(relsName)!.part.relationships ?? [];
    const kept: Relationship[] = [];
    for (const rel of all) {
      const type = relationshipType(rel);
      if (type === 'hyperlink') {
        // An address in the text: LibreOffice never opens it, the PDF keeps it as a link.
        kept.push(rel);
        continue;
      }
      if (rel.external) {
        // Content from elsewhere (linked pictures, OLE links, frames: the CVE-2020-27603
        // pattern) is never fetched: the relationship goes, the picture's frame stays empty.
        if (PICTURE_RELATIONSHIP.has(type)) notes.add(DOCX_NOTES.linkedPicture);
        continue;
      }
      if (DROPPED_RELATIONSHIP.has(type)) {
        if (MACRO_RELATIONSHIP.has(type)) notes.add(DOCX_NOTES.macros);
        continue;
      }
      // A URL where a part name belongs is never followed, whatever LibreOffice would make of it.
      if (/^[a-z][a-z0-9+.-]*:|^\/\/|^\\\\/i.test(rel.target)) continue;
      const target = resolveTarget(dir, rel.target);
      const contentType = contentTypeOf(target);
      if (contentType !== undefined && DROPPED_CONTENT_TYPE.test(contentType)) {
        if (MACRO_CONTENT_TYPE.test(contentType)) notes.add(DOCX_NOTES.macros);
        continue;
      }
      if (
        PICTURE_RELATIONSHIP.has(type) &&
        contentType !== undefined &&
        !contentType.toLowerCase().startsWith('image/')
      ) {
        continue;
      }
      if (source === '' && type === 'officedocument') {
        mainParts++;
        // A .docm or .dotm renamed .docx: its macros are what it is for.
        if (/macroEnabled/i.test(contentType ?? '')) {
          reject('UNSAFE_CONTENT', `macro-enabled main part ${contentType}`);
        }
        if (contentType !== DOCX_MAIN) reject('UNREADABLE', 'main part is not a docx document');
      }
      kept.push(rel);
      if (!files.has(target)) continue;
      // Pictures in XML (SVG) too: LibreOffice parses them, DOCTYPE and all.
      if (!BINARY_RELATIONSHIP.has(type) || looksLikeXml(files.get(target)!)) parse(target);
      if (!included.has(target)) {
        included.add(target);
        queue.push(target);
      }
    }
    if (kept.length !== all.length) keptRelationships.set(relsName, kept);
  }
  if (mainParts === 0) reject('UNREADABLE', 'no main document');

  // An external hyperlink named by a picture or a data source would be fetched as one.
  for (const [name, { part }] of parsed) {
    if (part.contentReferences.length === 0) continue;
    const relsName = relationshipsPartOf(name);
    const rels = keptRelationships.get(relsName) ?? parsed.get(relsName)?.part.relationships;
    if (!rels) continue;
    const fetched = new Set(
      part.contentReferences
        .filter((ref) => rels.some((r) => r.external && r.id.trim() === ref.id))
        .map((ref) => {
          if (ref.picture) notes.add(DOCX_NOTES.linkedPicture);
          return ref.id;
        }),
    );
    if (fetched.size > 0) {
      keptRelationships.set(
        relsName,
        rels.filter((r) => !(r.external && fetched.has(r.id.trim()))),
      );
    }
  }

  const out: ZipPart[] = [];
  for (const name of included) {
    const data = files.get(name)!;
    const rels = keptRelationships.get(name);
    const xml = parsed.get(name);
    if (rels) out.push(changedPart(name, strToU8(serializeRelationships(rels))));
    else if (xml && xml.part.edits.length > 0) {
      out.push(changedPart(name, encodeXml(applyEdits(xml.text, xml.part.edits))));
    } else {
      if (!xml) {
        // LibreOffice decodes every picture whole to draw it: a 1.6 KB docx holding a
        // 20000×20000 PNG kept a process busy for the whole 20 s time-out.
        const size = readImageDimensions(data);
        if (size && size[0] * size[1] > DOCUMENT_LIMITS.maxImagePixels) {
          reject('IMAGE_TOO_LARGE', `${name} is ${size[0]}×${size[1]}`);
        }
      }
      // Unchanged: its compressed bytes as they came (inflated above, so they inflate), with
      // the checksum of what they inflated to.
      const { data: compressed, method } = stored.get(name)!;
      out.push({ name, compressed, method, size: data.length, crc: crc32(data) });
    }
  }
  return { pkg: writeZip(out), notes: [...notes] };
}

interface ZipPart {
  name: string;
  compressed: Uint8Array;
  method: 0 | 8;
  size: number;
  crc: number;
}

function changedPart(name: string, data: Uint8Array): ZipPart {
  return {
    name,
    compressed: deflateRawSync(data, { level: 1 }),
    method: 8,
    size: data.length,
    crc: crc32(data),
  };
}

/**
 * The zip LibreOffice gets, through fflate's streaming writer fed with parts already compressed
 * and checksummed (zlib's native deflate and CRC-32): fflate's zipSync would deflate every
 * picture again and checksum it in JavaScript, most of the rewrite's time on a 1 MB docx.
 */
function writeZip(parts: ZipPart[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  for (const part of parts) {
    const file: ZipInputFile = {
      filename: part.name,
      size: part.size,
      crc: part.crc,
      compression: part.method,
    };
    zip.add(file);
    // fflate's types want an ArrayBuffer-backed array; it only copies the bytes out.
    file.ondata!(null, part.compressed as Uint8Array<ArrayBuffer>, true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

/** The package rewriteDocx hands LibreOffice, without the notes. */
export function checkDocx(bytes: Uint8Array): Uint8Array {
  return rewriteDocx(bytes).pkg;
}
