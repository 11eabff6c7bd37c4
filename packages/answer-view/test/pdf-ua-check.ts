// The machine-checkable part of PDF/UA-1 (ISO 14289-1) and the Matterhorn Protocol, as the test
// suite asserts it: the document's tagging, language and title, every page content item tagged or
// an artifact, the structure tree's headings, tables and figures, ToUnicode on every font, and the
// parent tree against the pages' StructParents. Objects are read with pdf-lib; the content streams'
// marked-content operators are tokenised here (pdf-lib writes content, it does not parse it).
//
// Not checked (needs a person or a full PDF/UA validator such as veraPDF): whether alternative text
// is meaningful, the reading order's sense, colour contrast, and content inside Form XObjects (a
// Form XObject drawn inside tagged content counts as tagged).
import type { PDFObject } from 'pdf-lib';
import {
  decodePDFRawStream,
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
} from 'pdf-lib';

export interface PdfUaFinding {
  /** The Matterhorn checkpoint the failure belongs to ("01-005", "14-003", …). */
  checkpoint: string;
  message: string;
}

/** Every failure found, empty when the file passes; each message says where. */
export async function checkPdfUa(bytes: Uint8Array): Promise<PdfUaFinding[]> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const findings: PdfUaFinding[] = [];
  const fail = (checkpoint: string, message: string) => findings.push({ checkpoint, message });
  const context = pdf.context;
  const lookup = (object: PDFObject | undefined): PDFObject | undefined =>
    object instanceof PDFRef ? context.lookup(object) : object;
  const dictOf = (object: PDFObject | undefined) => {
    const value = lookup(object);
    if (value instanceof PDFDict) return value;
    if (value instanceof PDFStream) return value.dict;
    return undefined;
  };
  const arrayOf = (object: PDFObject | undefined) => {
    const value = lookup(object);
    return value instanceof PDFArray ? value.asArray() : value === undefined ? [] : [value];
  };
  const textOf = (object: PDFObject | undefined) => {
    const value = lookup(object);
    return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : '';
  };
  const nameOf = (object: PDFObject | undefined) => {
    const value = lookup(object);
    return value instanceof PDFName ? value.decodeText() : undefined;
  };

  // Document level (06-xxx, 07-001, 11-001, 01-xxx).
  const catalog = pdf.catalog;
  const markInfo = dictOf(catalog.get(PDFName.of('MarkInfo')));
  if (lookup(markInfo?.get(PDFName.of('Marked'))) !== PDFBool.True) {
    fail('01-001', 'the catalog has no /MarkInfo << /Marked true >>');
  }
  const lang = textOf(catalog.get(PDFName.of('Lang')));
  if (lang.trim() === '') fail('11-001', 'the catalog has no /Lang');
  const preferences = dictOf(catalog.get(PDFName.of('ViewerPreferences')));
  if (lookup(preferences?.get(PDFName.of('DisplayDocTitle'))) !== PDFBool.True) {
    fail('07-001', 'the viewer preferences do not set /DisplayDocTitle true');
  }
  const metadata = lookup(catalog.get(PDFName.of('Metadata')));
  const xmp = metadata instanceof PDFStream ? new TextDecoder().decode(streamBytes(metadata)) : '';
  if (!/<dc:title>[\s\S]*?<rdf:li[^>]*>\s*[^<\s][^<]*<\/rdf:li>/.test(xmp)) {
    fail('06-003', 'the XMP metadata has no dc:title');
  }
  if (!/pdfuaid:part(>|=")1/.test(xmp)) {
    fail('06-002', 'the XMP metadata does not declare PDF/UA (pdfuaid:part 1)');
  }

  const treeRoot = dictOf(catalog.get(PDFName.of('StructTreeRoot')));
  if (!treeRoot) fail('01-006', 'the catalog has no /StructTreeRoot');

  // The parent tree: StructParents key → array of structure elements, indexed by MCID.
  const parentTree = new Map<number, PDFObject[]>();
  const readNumberTree = (node: PDFDict | undefined) => {
    if (!node) return;
    const nums = arrayOf(node.get(PDFName.of('Nums')));
    for (let i = 0; i + 1 < nums.length; i += 2) {
      const key = lookup(nums[i]);
      if (key instanceof PDFNumber) parentTree.set(key.asNumber(), arrayOf(nums[i + 1]));
    }
    for (const kid of arrayOf(node.get(PDFName.of('Kids')))) readNumberTree(dictOf(kid));
  };
  readNumberTree(dictOf(treeRoot?.get(PDFName.of('ParentTree'))));

  // Page content (01-005: content neither tagged nor an artifact; 31-006: fonts without ToUnicode).
  const pageRefs = pdf.getPages().map((page) => page.ref);
  const contentMcids = new Map<string, Set<number>>();
  const checkedFonts = new Set<PDFObject>();
  pdf.getPages().forEach((page, index) => {
    const where = `page ${index + 1}`;
    const tokens = tokeniseContent(pageContentBytes(page.node, lookup));
    const properties = dictOf(dictOf(page.node.Resources())?.get(PDFName.of('Properties')));
    const scan = scanMarkedContent(tokens, (name) => {
      const entry = dictOf(properties?.get(PDFName.of(name)));
      const mcid = lookup(entry?.get(PDFName.of('MCID')));
      return mcid instanceof PDFNumber ? mcid.asNumber() : undefined;
    });
    if (scan.untagged.length > 0) {
      fail(
        '01-005',
        `${where}: ${scan.untagged.length} content item(s) neither tagged nor an artifact ` +
          `(first: ${scan.untagged[0]})`,
      );
    }
    if (scan.unbalanced) fail('01-005', `${where}: BDC/BMC and EMC do not balance`);
    contentMcids.set(page.ref.toString(), scan.mcids);
    if (scan.mcids.size > 0) {
      const key = lookup(page.node.get(PDFName.of('StructParents')));
      if (!(key instanceof PDFNumber)) {
        fail('01-007', `${where}: marked content but no /StructParents`);
      } else {
        const entries = parentTree.get(key.asNumber());
        for (const mcid of scan.mcids) {
          if (!entries?.[mcid] || !dictOf(entries[mcid])) {
            fail('01-007', `${where}: MCID ${mcid} has no parent-tree entry`);
          }
        }
      }
    }
    const fonts = dictOf(dictOf(page.node.Resources())?.get(PDFName.of('Font')));
    for (const [name, ref] of fonts?.entries() ?? []) {
      if (checkedFonts.has(ref)) continue;
      checkedFonts.add(ref);
      const font = dictOf(ref);
      if (!font?.get(PDFName.of('ToUnicode'))) {
        const base = nameOf(font?.get(PDFName.of('BaseFont'))) ?? name.decodeText();
        fail('31-006', `${where}: font ${base} has no ToUnicode map`);
      }
    }
  });

  // The structure tree (14-xxx headings, 15-xxx tables, 13-004 figures) and its MCIDs against the
  // pages' content and parent tree (01-007).
  const headings: { level: number; text: string }[] = [];
  const visited = new Set<PDFObject>();
  const walk = (object: PDFObject | undefined, pageRef: PDFRef | undefined) => {
    const element = dictOf(object);
    if (!element || visited.has(element)) return;
    visited.add(element);
    const type = nameOf(element.get(PDFName.of('S')));
    const ownPage = element.get(PDFName.of('Pg'));
    const page = ownPage instanceof PDFRef ? ownPage : pageRef;
    if (type && /^H[1-6]$/.test(type)) {
      headings.push({ level: Number(type.slice(1)), text: describe(element) });
    }
    if (type === 'Table' && !hasDescendant(element, 'TH')) {
      fail('15-003', `table "${describe(element)}" has no TH header cell`);
    }
    if (type === 'Figure') {
      const alt =
        textOf(element.get(PDFName.of('Alt'))) || textOf(element.get(PDFName.of('ActualText')));
      if (alt.trim() === '') fail('13-004', 'a Figure has no alternative text');
    }
    for (const kid of arrayOf(element.get(PDFName.of('K')))) {
      const value = lookup(kid);
      if (value instanceof PDFNumber) {
        checkMcid(element, page, value.asNumber());
        continue;
      }
      const kidDict = dictOf(kid);
      const kidType = nameOf(kidDict?.get(PDFName.of('Type')));
      if (kidType === 'MCR') {
        const mcrPage = kidDict!.get(PDFName.of('Pg'));
        const mcid = lookup(kidDict!.get(PDFName.of('MCID')));
        if (mcid instanceof PDFNumber) {
          checkMcid(element, mcrPage instanceof PDFRef ? mcrPage : page, mcid.asNumber());
        }
      } else if (kidType !== 'OBJR') {
        walk(kid, page);
      }
    }
  };
  const checkMcid = (element: PDFDict, page: PDFRef | undefined, mcid: number) => {
    if (!page || !pageRefs.some((ref) => ref === page)) {
      fail('01-007', `a structure element's MCID ${mcid} has no page`);
      return;
    }
    if (!contentMcids.get(page.toString())?.has(mcid)) {
      fail(
        '01-007',
        `MCID ${mcid} of ${page.toString()} is in the structure tree, not on the page`,
      );
    }
    const key = lookup(dictOf(page)?.get(PDFName.of('StructParents')));
    const entry = key instanceof PDFNumber ? parentTree.get(key.asNumber())?.[mcid] : undefined;
    if (dictOf(entry) !== element) {
      fail('01-007', `the parent tree does not point MCID ${mcid} of ${page.toString()} back`);
    }
  };
  const describe = (element: PDFDict): string =>
    textOf(element.get(PDFName.of('T'))) ||
    textOf(element.get(PDFName.of('Alt'))) ||
    nameOf(element.get(PDFName.of('S'))) ||
    '?';
  const hasDescendant = (element: PDFDict, type: string): boolean =>
    arrayOf(element.get(PDFName.of('K'))).some((kid) => {
      const dict = dictOf(kid);
      if (!dict || nameOf(dict.get(PDFName.of('Type'))) === 'MCR') return false;
      return nameOf(dict.get(PDFName.of('S'))) === type || hasDescendant(dict, type);
    });
  for (const kid of arrayOf(treeRoot?.get(PDFName.of('K')))) walk(kid, undefined);

  if (treeRoot && headings.length > 0 && headings[0]!.level !== 1) {
    fail('14-002', `the first heading is H${headings[0]!.level}, not H1`);
  }
  headings.forEach((heading, i) => {
    const previous = headings[i - 1];
    if (previous && heading.level > previous.level + 1) {
      fail('14-003', `H${heading.level} follows H${previous.level} (skips a level)`);
    }
  });
  return findings;
}

function streamBytes(stream: PDFStream): Uint8Array {
  return stream instanceof PDFRawStream
    ? decodePDFRawStream(stream).decode()
    : stream.getContents();
}

function pageContentBytes(
  node: PDFDict,
  lookup: (object: PDFObject | undefined) => PDFObject | undefined,
): Uint8Array {
  const contents = lookup(node.get(PDFName.of('Contents')));
  const streams = contents instanceof PDFArray ? contents.asArray().map(lookup) : [contents];
  const parts = streams
    .filter((s): s is PDFStream => s instanceof PDFStream)
    .flatMap((s) => [streamBytes(s), new Uint8Array([10])]);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// A content stream as operands and operators. Only what marked content needs is kept: names,
// numbers and dictionaries' names/numbers; strings and arrays are skipped as single operands.
type Operand =
  { name: string } | { number: number } | { dict: Map<string, number | string> } | null;
interface Operation {
  operator: string;
  operands: Operand[];
}

const WHITESPACE = new Set([0, 9, 10, 12, 13, 32]);
const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));

export function tokeniseContent(bytes: Uint8Array): Operation[] {
  const operations: Operation[] = [];
  let operands: Operand[] = [];
  let i = 0;
  const n = bytes.length;
  const readRegular = () => {
    const start = i;
    while (i < n && !WHITESPACE.has(bytes[i]!) && !DELIMITERS.has(bytes[i]!)) i++;
    return new TextDecoder('latin1').decode(bytes.subarray(start, i));
  };
  const skipString = () => {
    let depth = 0;
    for (; i < n; i++) {
      const c = bytes[i]!;
      if (c === 0x5c) i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) {
        i++;
        return;
      }
    }
  };
  const readDict = (): Map<string, number | string> => {
    // Called after "<<": key/value pairs up to ">>"; nested values are skipped.
    const dict = new Map<string, number | string>();
    let key: string | undefined;
    let depth = 1;
    while (i < n && depth > 0) {
      const c = bytes[i]!;
      if (WHITESPACE.has(c)) i++;
      else if (c === 0x3c && bytes[i + 1] === 0x3c) {
        depth++;
        i += 2;
      } else if (c === 0x3e && bytes[i + 1] === 0x3e) {
        depth--;
        i += 2;
      } else if (c === 0x28) {
        skipString();
        key = undefined;
      } else if (c === 0x3c) {
        while (i < n && bytes[i] !== 0x3e) i++;
        i++;
        key = undefined;
      } else if (c === 0x2f) {
        i++;
        const name = readRegular();
        if (depth === 1 && key === undefined) key = name;
        else {
          if (depth === 1 && key !== undefined) dict.set(key, name);
          key = undefined;
        }
      } else if (DELIMITERS.has(c)) {
        i++;
      } else {
        const word = readRegular();
        if (depth === 1 && key !== undefined) dict.set(key, Number(word));
        key = undefined;
      }
    }
    return dict;
  };
  while (i < n) {
    const c = bytes[i]!;
    if (WHITESPACE.has(c)) i++;
    else if (c === 0x25) {
      while (i < n && bytes[i] !== 10 && bytes[i] !== 13) i++;
    } else if (c === 0x2f) {
      i++;
      operands.push({ name: readRegular() });
    } else if (c === 0x28) {
      skipString();
      operands.push(null);
    } else if (c === 0x3c && bytes[i + 1] === 0x3c) {
      i += 2;
      operands.push({ dict: readDict() });
    } else if (c === 0x3c) {
      while (i < n && bytes[i] !== 0x3e) i++;
      i++;
      operands.push(null);
    } else if (c === 0x5b) {
      // An array operand (TJ's): skip to its matching "]", strings included.
      i++;
      let depth = 1;
      while (i < n && depth > 0) {
        const d = bytes[i]!;
        if (d === 0x28) skipString();
        else {
          if (d === 0x5b) depth++;
          else if (d === 0x5d) depth--;
          i++;
        }
      }
      operands.push(null);
    } else if (DELIMITERS.has(c)) {
      i++;
    } else {
      const word = readRegular();
      const number = Number(word);
      if (word !== '' && !Number.isNaN(number) && /^[+\-.\d]/.test(word)) {
        operands.push({ number });
        continue;
      }
      operations.push({ operator: word, operands });
      operands = [];
      if (word === 'ID') {
        // Inline image data runs to whitespace + "EI" + whitespace.
        i++;
        while (
          i < n &&
          !(
            WHITESPACE.has(bytes[i - 1]!) &&
            bytes[i] === 0x45 &&
            bytes[i + 1] === 0x49 &&
            (i + 2 >= n || WHITESPACE.has(bytes[i + 2]!))
          )
        ) {
          i++;
        }
      }
    }
  }
  return operations;
}

/** Operators that put something on the page (text, painted paths, images, shadings). */
const PAINTING = new Set([
  ...['Tj', 'TJ', "'", '"'],
  ...['f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'S', 's'],
  ...['Do', 'sh', 'EI'],
]);

function scanMarkedContent(
  operations: Operation[],
  propertyMcid: (name: string) => number | undefined,
): { untagged: string[]; mcids: Set<number>; unbalanced: boolean } {
  const stack: { artifact: boolean; mcid?: number }[] = [];
  const untagged: string[] = [];
  const mcids = new Set<number>();
  let unbalanced = false;
  for (const { operator, operands } of operations) {
    if (operator === 'BMC' || operator === 'BDC') {
      const tag = operands[0] && 'name' in operands[0] ? operands[0].name : '';
      const properties = operands[1];
      let mcid: number | undefined;
      if (properties && 'dict' in properties) {
        const value = properties.dict.get('MCID');
        if (typeof value === 'number') mcid = value;
      } else if (properties && 'name' in properties) {
        mcid = propertyMcid(properties.name);
      }
      if (mcid !== undefined) mcids.add(mcid);
      stack.push({ artifact: tag === 'Artifact', ...(mcid === undefined ? {} : { mcid }) });
    } else if (operator === 'EMC') {
      if (stack.pop() === undefined) unbalanced = true;
    } else if (PAINTING.has(operator)) {
      if (!stack.some((entry) => entry.artifact || entry.mcid !== undefined)) {
        untagged.push(operator);
      }
    }
  }
  if (stack.length > 0) unbalanced = true;
  return { untagged, mcids, unbalanced };
}
