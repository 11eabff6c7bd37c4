// Bounds of an uploaded PDF read from its object structure alone (no content stream or image is
// decoded): the page tree, the page sizes and the pixel count of every image a page can draw.
import {
  PDFArray,
  PDFDict,
  PDFName,
  PDFNumber,
  PDFPageLeaf,
  PDFPageTree,
  PDFRef,
  PDFStream,
  type PDFContext,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';
import { DocumentRejectedError } from './conversion-errors';
import { DOCUMENT_LIMITS } from './limits';

/** XObjects, patterns and soft masks looked at per document before we give up. */
const MAX_RESOURCE_OBJECTS = 10_000;
const LETTER = [0, 0, 612, 792];

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
    const resources = context.lookup(leaf.getInheritableAttribute(PDFName.of('Resources')));
    checkResources(context, resources, seen);
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
    for (const key of ['XObject', 'Pattern']) {
      const group = asDict(context, dict.get(PDFName.of(key)));
      if (!group) continue;
      for (const value of group.values()) {
        const object = asDict(context, value);
        if (!object || seen.has(object)) continue;
        seen.add(object);
        const subtype = object.get(PDFName.of('Subtype'));
        if (subtype === PDFName.of('Image')) checkImage(context, object, seen);
        pending.push(object.get(PDFName.of('Resources')));
      }
    }
  }
}

function checkImage(context: PDFContext, image: PDFDict, seen: Set<PDFObject>) {
  const width = numberOf(context, image.get(PDFName.of('Width'))) ?? 0;
  const height = numberOf(context, image.get(PDFName.of('Height'))) ?? 0;
  if (width * height > DOCUMENT_LIMITS.maxImagePixels) {
    throw new DocumentRejectedError('IMAGE_TOO_LARGE', `image ${width}×${height}`);
  }
  // A soft mask is an image of its own, decoded alongside.
  const mask = asDict(context, image.get(PDFName.of('SMask')));
  if (mask && !seen.has(mask)) {
    seen.add(mask);
    checkImage(context, mask, seen);
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
