// The docx package is inspected, bounded and cleaned before LibreOffice sees it (docs/design-decisions.md, 10).
// A pure function of the bytes (the sandbox pool runs it in a child process):
//   - the zip: a bounded number of entries, sizes and ratios measured while inflating;
//   - every XML part parsed with a real XML parser (saxes: namespaces resolved, so a prefix other
//     than w:/r: or single-quoted attributes change nothing; no DOCTYPE, so no entity expansion);
//   - refused: macros, ActiveX, OLE objects, altChunk, linking fields (INCLUDEPICTURE … also when
//     the instruction is split over runs), external relationships other than hyperlinks, and
//     structures that hold LibreOffice for the whole time-out (deep nesting, thousands of tables);
//   - removed from the package handed to LibreOffice: the attachedTemplate relationship (Word
//     writes one, external, for every template-based document: the template must never be
//     fetched), a chart's embedded data workbook (the chart is drawn from its cached values), and
//     comments (see stripComments).
import { strToU8, zipSync } from 'fflate';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { inflateRawSync } from 'node:zlib';
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
  /** Compression ratio allowed for entries bigger than ratioFloorBytes (the bomb in docs/measurements.md is ~280). */
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

// Parts that carry code or other documents: VBA projects, ActiveX, OLE objects, embedded packages.
// Printer settings are the one binary part Word writes into ordinary documents; a chart's data
// workbook (word/embeddings/*.xlsx named by the chart's `package` relationship) is let through
// here and removed below.
const FORBIDDEN_PART =
  /(^|\/)(vbaProject\.bin|vbaData\.xml)$|^word\/activeX\/|^(?!word\/printerSettings\/).*\.bin$|\.(docm|dotm|xlsm|xlsb|pptm)$/i;

// Relationship types (the last path segment) that pull in code or foreign content.
const FORBIDDEN_RELATIONSHIP = new Set(
  [
    'aFChunk',
    'oleObject',
    'control',
    'subDocument',
    'vbaProject',
    'externalLinkPath',
    'frame',
    'wordVbaData',
    'keyMapCustomizations',
    'activeXControlBinary',
    'activeXControl',
    'package',
  ].map((t) => t.toLowerCase()),
);
// Relationship types whose target LibreOffice reads as something other than XML. A target of any
// other type is parsed (and checked) as XML whatever its name: the main document or a header may
// be a part called word/x.dat.
const BINARY_RELATIONSHIP = new Set(
  [
    'image',
    'font',
    'printerSettings',
    'thumbnail',
    'package',
    'oleObject',
    'video',
    'audio',
    'media',
    'hdphoto',
  ].map((t) => t.toLowerCase()),
);
// Dropped from the package LibreOffice gets, with the parts they name.
const COMMENT_RELATIONSHIP = new Set(
  ['comments', 'commentsExtended', 'commentsIds', 'commentsExtensible', 'people'].map((t) =>
    t.toLowerCase(),
  ),
);

// Field codes that read other files or talk to other programs when updated.
const FORBIDDEN_FIELD =
  /^(INCLUDETEXT|INCLUDEPICTURE|INCLUDE|LINK|DDE|DDEAUTO|IMPORT|EMBED|DATABASE|AUTOTEXTLIST)$/;

// WordprocessingML elements that embed objects, controls, other documents or sub-documents.
const FORBIDDEN_W_ELEMENT = new Set(['altChunk', 'object', 'control', 'subDoc']);
// Comment anchors in the text; removed with the comments themselves.
const DONE = '\u0000';
const COMMENT_ANCHOR = new Set(['commentRangeStart', 'commentRangeEnd', 'commentReference']);

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

/** The directory of a part (for resolving relationship targets). */
function sourceDir(relsName: string): string {
  // word/_rels/document.xml.rels → word/ ; _rels/.rels → ''
  const dir = relsName.slice(0, relsName.lastIndexOf('_rels/'));
  return dir;
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

interface ParsedPart {
  relationships?: Relationship[];
  /** Relationship ids this part uses for something other than a hyperlink (an image, a frame…). */
  contentReferences: string[];
  contentTypes?: string[];
  /** [start, end) ranges of the text to cut out (comment anchors). */
  cuts: [number, number][];
}

/** Parses one XML part, enforcing the structure bounds and the element/field rules. */
function parseXmlPart(name: string, text: string, counters: Counters): ParsedPart {
  const limits = DOCX_STRUCTURE_LIMITS;
  const parser = new SaxesParser({ xmlns: true, position: true });
  const isRels = name.endsWith('.rels');
  const result: ParsedPart = { cuts: [], contentReferences: [] };
  const relationships: Relationship[] = [];
  const contentTypes: string[] = [];
  let depth = 0;
  let tableDepth = 0;
  // Runs of each open paragraph (a text box holds paragraphs inside a run of another).
  const paragraphRuns: number[] = [];
  // Field instructions: one buffer per open complex field (they nest), plus the text of the
  // w:instrText element being read.
  const fields: string[] = [];
  let instrText: string | undefined;
  let openAnchorStart: number | undefined;

  const checkInstruction = (instruction: string) => {
    // LibreOffice unquotes the field's first token too: "INCLUDEPICTURE" is the same field.
    const keyword = (instruction.trim().split(/\s+/)[0] ?? '').replace(/"/g, '').toUpperCase();
    if (FORBIDDEN_FIELD.test(keyword)) reject('UNSAFE_CONTENT', `${keyword} field in ${name}`);
  };

  parser.on('doctype', () => reject('UNSAFE_CONTENT', `DOCTYPE in ${name}`));
  parser.on('error', (error) => reject('UNREADABLE', `${name}: ${error.message.slice(0, 200)}`));
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++depth > limits.maxElementDepth) reject('TOO_COMPLEX', `nesting depth in ${name}`);
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
      contentTypes.push(attr('', 'ContentType') ?? '');
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
    if (tag.uri === VML_OFFICE_NS && tag.local === 'OLEObject') {
      reject('UNSAFE_CONTENT', `OLE object in ${name}`);
    }
    // LibreOffice looks a relationship up by id whatever its type, so an external hyperlink
    // named by an image (a:blip r:link, v:imagedata r:id) would be fetched as that image.
    const isHyperlink = tag.local === 'hyperlink' || tag.local.startsWith('hlink');
    if (!isHyperlink) {
      for (const a of Object.values(tag.attributes)) {
        if (R_NAMESPACES.has(a.uri) || (a.uri === VML_OFFICE_NS && a.local === 'relid')) {
          result.contentReferences.push(a.value.trim());
        }
      }
    }
    if (tag.uri !== W_NS && tag.uri !== W_STRICT_NS) return;
    if (FORBIDDEN_W_ELEMENT.has(tag.local)) reject('UNSAFE_CONTENT', `w:${tag.local} in ${name}`);
    switch (tag.local) {
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
          const open = paragraphRuns.length - 1;
          if (++paragraphRuns[open]! > limits.maxRunsPerParagraph) {
            reject('TOO_COMPLEX', `runs in one paragraph of ${name}`);
          }
        }
        break;
      case 'fldChar': {
        const type = attr(tag.uri, 'fldCharType');
        // The instruction is complete once the result (separate) or the end begins; after a
        // separate the field stays open (marked done) until its end.
        if (type === 'begin') fields.push('');
        else if (type === 'separate' || type === 'end') {
          const instruction = fields.pop();
          if (instruction !== undefined && instruction !== DONE) checkInstruction(instruction);
          if (type === 'separate') fields.push(DONE);
        }
        break;
      }
      case 'instrText':
      case 'delInstrText': // a deleted instruction is still a field LibreOffice imports
        instrText = '';
        break;
      case 'fldSimple':
        checkInstruction(attr(tag.uri, 'instr') ?? '');
        break;
      default:
        if (COMMENT_ANCHOR.has(tag.local)) {
          const end = parser.position;
          const start = text.lastIndexOf('<', end - 1);
          if (tag.isSelfClosing) result.cuts.push([start, end]);
          else openAnchorStart = start;
        }
    }
  });
  const readText = (chunk: string) => {
    if (instrText !== undefined) instrText += chunk;
  };
  parser.on('text', readText);
  // LibreOffice's parser hands a CDATA section over as ordinary text.
  parser.on('cdata', readText);
  parser.on('closetag', (tag: SaxesTagNS) => {
    depth--;
    if (tag.uri !== W_NS && tag.uri !== W_STRICT_NS) return;
    if (tag.local === 'tbl') tableDepth--;
    else if (tag.local === 'p') paragraphRuns.pop();
    else if (
      (tag.local === 'instrText' || tag.local === 'delInstrText') &&
      instrText !== undefined
    ) {
      const open = fields.length - 1;
      // An instrText outside any field is still an instruction Word would run: check it alone.
      if (open < 0 || fields[open] === DONE) checkInstruction(instrText);
      else fields[open] += instrText;
      instrText = undefined;
    } else if (COMMENT_ANCHOR.has(tag.local) && openAnchorStart !== undefined) {
      result.cuts.push([openAnchorStart, parser.position]);
      openAnchorStart = undefined;
    }
  });
  parser.write(text).close();
  // Fields whose separate/end never came: still check what was written.
  for (const field of fields) if (field !== DONE) checkInstruction(field);
  if (isRels) result.relationships = relationships;
  if (contentTypes.length > 0 || name === '[Content_Types].xml') result.contentTypes = contentTypes;
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

function cutRanges(text: string, cuts: [number, number][]): string {
  if (cuts.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of [...cuts].sort((a, b) => a[0] - b[0])) {
    out += text.slice(at, start);
    at = end;
  }
  return out + text.slice(at);
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

/**
 * Checks a docx and returns the package to hand to LibreOffice (attachedTemplate, chart
 * workbooks and comments removed); throws DocumentRejectedError with the reason.
 */
export function checkDocx(bytes: Uint8Array): Uint8Array {
  if (isCompoundFile(bytes)) {
    if (isEncryptedOfficePackage(bytes)) reject('DOCX_ENCRYPTED', 'EncryptedPackage stream');
    reject('UNREADABLE', 'a compound file that is not an encrypted Word document');
  }
  const entries = listZipEntries(bytes, DOCX_LIMITS.maxEntries);
  if (!entries) reject('UNREADABLE', 'no readable zip directory');
  if (entries.length > DOCX_LIMITS.maxEntries) reject('TOO_COMPLEX', `${entries.length} entries`);
  let total = 0;
  const files = new Map<string, Uint8Array>();
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
    if (files.has(name)) reject('UNREADABLE', `duplicate entry ${name}`);
    // LibreOffice decodes every picture whole to draw it: a 1.6 KB docx holding a 20000×20000 PNG
    // kept a process busy for the whole 20 s time-out.
    const size = readImageDimensions(inflated);
    if (size && size[0] * size[1] > DOCUMENT_LIMITS.maxImagePixels) {
      reject('IMAGE_TOO_LARGE', `${name} is ${size[0]}×${size[1]}`);
    }
    files.set(name, inflated);
  }
  if (!files.has('[Content_Types].xml') || !files.has('word/document.xml')) {
    reject('UNREADABLE', 'not a Word document');
  }

  const counters: Counters = { tables: 0, paragraphs: 0, runs: 0, xmlBytes: 0 };
  const parsed = new Map<string, { text: string; part: ParsedPart }>();
  const parse = (name: string, data: Uint8Array) => {
    counters.xmlBytes += data.length;
    if (counters.xmlBytes > DOCX_STRUCTURE_LIMITS.maxXmlBytes) reject('TOO_COMPLEX', 'XML size');
    const text = decodeXml(name, data);
    parsed.set(name, { text, part: parseXmlPart(name, text, counters) });
  };
  for (const [name, data] of files) {
    // Pictures in XML (SVG) too: LibreOffice parses them, DOCTYPE and all.
    if (/\.(xml|rels)$/i.test(name) || looksLikeXml(data)) parse(name, data);
  }
  // Every relationship part is parsed by now; what they name as XML is XML, whatever its name.
  for (const [name, { part }] of [...parsed]) {
    for (const rel of part.relationships ?? []) {
      const type = relationshipType(rel);
      if (rel.external || BINARY_RELATIONSHIP.has(type)) continue;
      const target = resolveTarget(sourceDir(name), rel.target);
      const data = files.get(target);
      if (data && !parsed.has(target)) parse(target, data);
    }
  }
  for (const [name, { part }] of parsed) {
    if (part.contentReferences.length === 0) continue;
    const slash = name.lastIndexOf('/') + 1;
    const rels = parsed.get(`${name.slice(0, slash)}_rels/${name.slice(slash)}.rels`);
    // The external relationships kept below are hyperlinks (the others are refused or dropped).
    const external = new Set(
      (rels?.part.relationships ?? [])
        .filter((r) => r.external && relationshipType(r) === 'hyperlink')
        .map((r) => r.id.trim()),
    );
    const used = part.contentReferences.find((id) => external.has(id));
    if (used !== undefined)
      reject('UNSAFE_CONTENT', `external relationship ${used} used in ${name}`);
  }

  const contentTypes = parsed.get('[Content_Types].xml')?.part.contentTypes ?? [];
  // A .docm/.dotm renamed .docx declares its main part as macro-enabled.
  if (contentTypes.some((t) => /macroEnabled|vbaProject|ms-office\.activeX|oleObject/i.test(t))) {
    reject('UNSAFE_CONTENT', 'macro-enabled or object content types');
  }
  if (!contentTypes.includes(DOCX_MAIN)) reject('UNREADABLE', 'main part is not a docx document');

  const dropParts = new Set<string>();
  const rewrittenRels = new Map<string, Relationship[]>();
  for (const [name, { part }] of parsed) {
    if (!part.relationships) continue;
    const dir = sourceDir(name);
    const kept: Relationship[] = [];
    for (const rel of part.relationships) {
      const type = relationshipType(rel);
      if (type === 'attachedtemplate') continue; // never fetched: LibreOffice never sees it
      if (type === 'hyperlink') {
        kept.push(rel);
        continue;
      }
      if ((type === 'package' || type === 'oleobject') && name.startsWith('word/charts/_rels/')) {
        // A chart's data workbook (embedded, or linked for a chart pasted from Excel with a
        // link): only for editing the chart, which is drawn from its cached values.
        if (!rel.external) dropParts.add(resolveTarget(dir, rel.target));
        continue;
      }
      if (rel.external) {
        // Any other external target is content fetched from elsewhere (images, OLE links,
        // frames: the CVE-2020-27603 pattern).
        reject('UNSAFE_CONTENT', `external ${type} relationship in ${name}`);
      }
      if (/^[a-z][a-z0-9+.-]*:|^\/\/|^\\\\/i.test(rel.target)) {
        reject('UNSAFE_CONTENT', `relationship target ${rel.target.slice(0, 40)} in ${name}`);
      }
      const target = resolveTarget(dir, rel.target);
      if (FORBIDDEN_RELATIONSHIP.has(type)) {
        reject('UNSAFE_CONTENT', `${type} relationship in ${name}`);
      }
      if (COMMENT_RELATIONSHIP.has(type)) {
        dropParts.add(target);
        continue;
      }
      kept.push(rel);
    }
    if (kept.length !== part.relationships.length) rewrittenRels.set(name, kept);
  }
  for (const name of files.keys()) {
    if (name.startsWith('word/embeddings/') && !dropParts.has(name)) {
      reject('UNSAFE_CONTENT', `embedded object ${name}`);
    }
  }

  const out: Record<string, Uint8Array> = {};
  for (const [name, data] of files) {
    if (dropParts.has(name)) continue;
    const rels = rewrittenRels.get(name);
    const xml = parsed.get(name);
    if (rels) out[name] = strToU8(serializeRelationships(rels));
    else if (xml && xml.part.cuts.length > 0)
      out[name] = encodeXml(cutRanges(xml.text, xml.part.cuts));
    else out[name] = data;
  }
  return zipSync(out, { level: 1 });
}
