// Bounds of an uploaded PDF read from its object structure alone (no content stream or image is
// decoded): the page tree, the page sizes and the pixel count of every image a page can draw.
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRawStream,
  PDFRef,
  PDFStream,
  type PDFContext,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { DocumentRejectedError } from './conversion-errors';
import { readImageDimensions } from './image-dimensions';
import { DOCUMENT_LIMITS } from './limits';

/** XObjects, patterns and soft masks looked at per document before we give up. */
const MAX_RESOURCE_OBJECTS = 10_000;
const LETTER = [0, 0, 612, 792];
/**
 * Content streams one page's /Contents may list. Real writers use one or a few; a page listing one
 * stream 100,000 times is drawn 100,000 times by every viewer.
 */
const MAX_CONTENT_STREAMS = 1000;
/**
 * XObjects drawn (`Do`) in the whole document, forms inside forms multiplied out: nine forms each
 * drawing the next ten times are 10^8 draws from 2.5 KB, which pdftoppm had not finished in 60 s.
 */
const MAX_XOBJECT_DRAWS = 100_000;
// `/Name Do`: a name token (delimiters end it) followed by the operator.
/** Characters between BI and ID: an inline image's dictionary is a few short entries. */
const MAX_INLINE_DICTIONARY = 4000;
const DO_OPERATOR = /\/([^\s/[\]()<>{}%]+)\s*Do(?![^\s/[\]()<>{}%])/g;

/**
 * Walks the page tree the way pdf-lib does (/Pages nodes and /Page leaves), visiting at most
 * maxPageTreeNodes nodes: pdf-lib's own walk and addPage have no bound (40,000 references to one
 * page took 37 s to append). A node reached twice is a loop or a reused page — never written by
 * real tools, always by a bomb.
 */
export function checkPageTree(doc: PDFDocument): number {
  const { context } = doc;
  const seen = new Set<PDFObject>();
  const root = doc.catalog.get(PDFName.of('Pages'));
  if (!root) throw new DocumentRejectedError('UNREADABLE', 'catalog without /Pages');
  const stack: PDFObject[] = [root];
  let visited = 0;
  let pages = 0;
  while (stack.length > 0) {
    const item = stack.pop()!;
    const node = item instanceof PDFRef ? context.lookup(item) : item;
    if (!(node instanceof PDFDict)) continue;
    if (seen.has(node))
      throw new DocumentRejectedError('TOO_COMPLEX', 'page tree node reached twice');
    seen.add(node);
    visited += 1;
    if (visited > DOCUMENT_LIMITS.maxPageTreeNodes) {
      throw new DocumentRejectedError('TOO_COMPLEX', `page tree over ${visited - 1} nodes`);
    }
    if (node instanceof PDFPageLeaf) {
      pages += 1;
      if (pages > DOCUMENT_LIMITS.maxPages) throw new DocumentRejectedError('TOO_MANY_PAGES');
    } else if (node instanceof PDFPageTree) {
      const kids = context.lookup(node.get(PDFName.of('Kids')));
      if (kids instanceof PDFArray) {
        for (let i = kids.size() - 1; i >= 0; i--) stack.push(kids.get(i));
      }
    }
  }
  if (pages === 0) throw new DocumentRejectedError('UNREADABLE', 'PDF without pages');
  return pages;
}

/** Page sides and images, for pages already bounded by checkPageTree. */
export function checkPageContents(doc: PDFDocument) {
  const { context } = doc;
  const seen = new Set<PDFObject>();
  const draws = { total: 0, forms: new Map<PDFObject, number>(), open: new Set<PDFObject>() };
  for (const page of doc.getPages()) {
    const leaf = page.node;
    // A page without a MediaBox is shown as Letter by readers; pdf-lib would throw on it.
    if (
      !(context.lookup(leaf.getInheritableAttribute(PDFName.of('MediaBox'))) instanceof PDFArray)
    ) {
      leaf.set(PDFName.of('MediaBox'), context.obj(LETTER));
    }
    const box = page.getMediaBox();
    const unit = numberOf(context, leaf.get(PDFName.of('UserUnit'))) ?? 1;
    const sides = [Math.abs(box.width) * unit, Math.abs(box.height) * unit];
    if (sides.some((side) => !Number.isFinite(side) || side < 1)) {
      throw new DocumentRejectedError('UNREADABLE', 'empty or invalid page box');
    }
    if (sides.some((side) => side > DOCUMENT_LIMITS.maxPageSidePoints)) {
      throw new DocumentRejectedError('IMAGE_TOO_LARGE', `page ${sides.join('×')} pt`);
    }
    checkContentList(context, leaf.get(PDFName.of('Contents')));
    const resources = context.lookup(leaf.getInheritableAttribute(PDFName.of('Resources')));
    checkResources(context, resources, seen);
    countDraws(context, leaf.get(PDFName.of('Contents')), resources, draws);
  }
}

interface DrawCount {
  total: number;
  /** Draws one drawing of a form makes (memo). */
  forms: Map<PDFObject, number>;
  /** Forms being counted: one reached again draws itself forever. */
  open: Set<PDFObject>;
}

function decodedText(stream: PDFObject | undefined): string {
  if (!(stream instanceof PDFRawStream)) return '';
  try {
    return Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
  } catch {
    return ''; // a filter pdf-lib does not know: not a content stream viewers could draw either
  }
}

function countDraws(
  context: PDFContext,
  contents: PDFObject | undefined,
  resources: PDFObject | undefined,
  draws: DrawCount,
) {
  const list = contents instanceof PDFRef ? context.lookup(contents) : contents;
  const streams = list instanceof PDFArray ? list.asArray() : [list];
  const text = streams
    .map((item) => decodedText(item instanceof PDFRef ? context.lookup(item) : item))
    .join('\n');
  draws.total += drawsIn(context, text, resources, draws);
  if (draws.total > MAX_XOBJECT_DRAWS) {
    throw new DocumentRejectedError('TOO_COMPLEX', `over ${MAX_XOBJECT_DRAWS} XObject draws`);
  }
}

function drawsIn(
  context: PDFContext,
  text: string,
  resources: PDFObject | undefined,
  draws: DrawCount,
): number {
  const xobjects = asDict(context, asDict(context, resources)?.get(PDFName.of('XObject')));
  let count = 0;
  for (const match of text.matchAll(DO_OPERATOR)) {
    count += 1;
    const target = xobjects?.get(PDFName.of(match[1]!));
    const form = target instanceof PDFRef ? context.lookup(target) : target;
    if (
      form instanceof PDFRawStream &&
      form.dict.get(PDFName.of('Subtype')) === PDFName.of('Form')
    ) {
      count += formDraws(context, form, resources, draws);
    }
    if (draws.total + count > MAX_XOBJECT_DRAWS) {
      throw new DocumentRejectedError('TOO_COMPLEX', `over ${MAX_XOBJECT_DRAWS} XObject draws`);
    }
  }
  return count;
}

function formDraws(
  context: PDFContext,
  form: PDFRawStream,
  inherited: PDFObject | undefined,
  draws: DrawCount,
): number {
  const known = draws.forms.get(form);
  if (known !== undefined) return known;
  if (draws.open.has(form)) throw new DocumentRejectedError('TOO_COMPLEX', 'a form draws itself');
  draws.open.add(form);
  // A form without resources uses those of what draws it (allowed before PDF 1.2).
  const own = form.dict.get(PDFName.of('Resources'));
  const count = drawsIn(context, decodedText(form), own ?? inherited, draws);
  draws.open.delete(form);
  draws.forms.set(form, count);
  return count;
}

function checkContentList(context: PDFContext, contents: PDFObject | undefined) {
  const list = contents instanceof PDFRef ? context.lookup(contents) : contents;
  if (!(list instanceof PDFArray)) return;
  if (list.size() > MAX_CONTENT_STREAMS) {
    throw new DocumentRejectedError('TOO_COMPLEX', `${list.size()} content streams on a page`);
  }
  const seen = new Set<PDFObject>();
  for (const item of list.asArray()) {
    const stream = item instanceof PDFRef ? context.lookup(item) : item;
    if (stream && seen.has(stream)) {
      throw new DocumentRejectedError('TOO_COMPLEX', 'a content stream drawn twice on a page');
    }
    if (stream) seen.add(stream);
  }
}

/** Every image reachable from a resource dictionary: XObjects, forms inside forms, patterns. */
function checkResources(
  context: PDFContext,
  resources: PDFObject | undefined,
  seen: Set<PDFObject>,
) {
  const pending: (PDFObject | undefined)[] = [resources];
  while (pending.length > 0) {
    const dict = asDict(context, pending.pop());
    if (!dict || seen.has(dict)) continue;
    seen.add(dict);
    if (seen.size > MAX_RESOURCE_OBJECTS) {
      throw new DocumentRejectedError('TOO_COMPLEX', 'too many resources');
    }
    // A soft mask's group and a Type 3 font's glyphs draw with resources of their own.
    const states = asDict(context, dict.get(PDFName.of('ExtGState')));
    for (const state of states?.values() ?? []) {
      const mask = asDict(context, asDict(context, state)?.get(PDFName.of('SMask')));
      const group = asDict(context, mask?.get(PDFName.of('G')));
      if (group) pending.push(group.get(PDFName.of('Resources')));
    }
    const fonts = asDict(context, dict.get(PDFName.of('Font')));
    for (const value of fonts?.values() ?? []) {
      const font = asDict(context, value);
      if (font?.get(PDFName.of('Subtype')) === PDFName.of('Type3')) {
        pending.push(font.get(PDFName.of('Resources')));
      }
    }
    for (const key of ['XObject', 'Pattern']) {
      const group = asDict(context, dict.get(PDFName.of(key)));
      if (!group) continue;
      for (const value of group.values()) {
        const object = asDict(context, value);
        if (!object || seen.has(object)) continue;
        seen.add(object);
        const subtype = object.get(PDFName.of('Subtype'));
        if (subtype === PDFName.of('Image')) {
          checkImage(context, object, seen, rawData(context, value));
        }
        pending.push(object.get(PDFName.of('Resources')));
      }
    }
  }
}

function checkImage(context: PDFContext, image: PDFDict, seen: Set<PDFObject>, data?: Uint8Array) {
  const width = numberOf(context, image.get(PDFName.of('Width'))) ?? 0;
  const height = numberOf(context, image.get(PDFName.of('Height'))) ?? 0;
  // A JPEG or JPEG 2000 image is decoded at the size its own header gives, whatever /Width and
  // /Height say (a 10×10 dictionary over a 60000×60000 JPEG).
  const coded = data ? readImageDimensions(data) : undefined;
  if (coded && coded[0] * coded[1] > DOCUMENT_LIMITS.maxImagePixels) {
    throw new DocumentRejectedError('IMAGE_TOO_LARGE', `coded image ${coded.join('×')}`);
  }
  if (width * height > DOCUMENT_LIMITS.maxImagePixels) {
    throw new DocumentRejectedError('IMAGE_TOO_LARGE', `image ${width}×${height}`);
  }
  // A soft mask is an image of its own, decoded alongside.
  const maskObject = image.get(PDFName.of('SMask'));
  const mask = asDict(context, maskObject);
  if (mask && !seen.has(mask)) {
    seen.add(mask);
    checkImage(context, mask, seen, rawData(context, maskObject));
  }
}

function rawData(context: PDFContext, object: PDFObject | undefined): Uint8Array | undefined {
  const resolved = object instanceof PDFRef ? context.lookup(object) : object;
  return resolved instanceof PDFRawStream ? resolved.contents : undefined;
}

/**
 * Inline images (BI <dictionary> ID <data> EI) in decoded content: their size is in the operator,
 * not in any object, and viewers decode them at that size. The scan is over the whole decoded file
 * (content streams, forms, glyph procedures); a string spelling "BI /W … ID" can only refuse more.
 */
export function checkInlineImages(decoded: Uint8Array) {
  const text = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength).toString(
    'latin1',
  );
  const white = (at: number) => at < 0 || at >= text.length || /[\s\0]/.test(text[at]!);
  const delimiter = (at: number) => at < 0 || /[\s\0\]>)}]/.test(text[at]!);
  // One pass: the ID that ends a dictionary is looked up once for every BI before it, so a
  // stream of nothing but "BI BI BI …" costs no more than its length.
  let idAt = -1;
  for (let at = text.indexOf('BI'); at !== -1; at = text.indexOf('BI', at + 2)) {
    if (!delimiter(at - 1) || !white(at + 2)) continue;
    if (idAt < at) {
      idAt = text.indexOf('ID', at + 2);
      while (idAt !== -1 && !(white(idAt - 1) && white(idAt + 2))) {
        idAt = text.indexOf('ID', idAt + 2);
      }
      if (idAt === -1) return;
    }
    if (idAt - at > MAX_INLINE_DICTIONARY) continue;
    const dictionary = text.slice(at + 2, idAt);
    const entry = (short: string, long: string) => {
      const found = new RegExp(`/(?:${long}|${short})\\s*([-+0-9.]+)`).exec(dictionary);
      return found ? Math.abs(Number.parseFloat(found[1]!)) || 0 : 0;
    };
    const width = entry('W', 'Width');
    const height = entry('H', 'Height');
    if (width * height > DOCUMENT_LIMITS.maxImagePixels) {
      throw new DocumentRejectedError('IMAGE_TOO_LARGE', `inline image ${width}×${height}`);
    }
  }
}

function asDict(context: PDFContext, object: PDFObject | undefined): PDFDict | undefined {
  const resolved = object instanceof PDFRef ? context.lookup(object) : object;
  if (resolved instanceof PDFStream) return resolved.dict;
  return resolved instanceof PDFDict ? resolved : undefined;
}

function numberOf(context: PDFContext, object: PDFObject | undefined): number | undefined {
  const resolved = object instanceof PDFRef ? context.lookup(object) : object;
  return resolved instanceof PDFNumber ? resolved.asNumber() : undefined;
}
