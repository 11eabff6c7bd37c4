// The PDF we store: only the pages of the upload, copied into a new document, with nothing a
// viewer could run, open or send. Form fields and other annotations were flattened into the page
// content by qpdf before this, so what is left of them is dropped here.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRef,
  PDFStream,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';

/** Page entries that hold actions, annotations or article beads (which link into threads). */
const PAGE_KEYS_DROPPED = ['AA', 'Annots', 'B'];
/**
 * Keys removed from every object the copy holds: whatever a page's resources reach is copied too,
 * so a hostile reference (a font pointing at the catalog, say) could carry an action along.
 */
const KEYS_DROPPED_EVERYWHERE = new Set(
  [
    'A',
    'AA',
    'JS',
    'JavaScript',
    'OpenAction',
    'EmbeddedFiles',
    'EF',
    'XFA',
    'AcroForm',
    'URI',
    // Associated files (PDF 2.0) carry attachments on pages and XObjects; an action chain's next
    // step would outlive its first.
    'AF',
    'Next',
  ].map((key) => PDFName.of(key)),
);

export async function saveInertCopy(source: PDFDocument): Promise<Uint8Array> {
  const pages = source.getPages();
  for (const page of pages) {
    for (const key of PAGE_KEYS_DROPPED) page.node.delete(PDFName.of(key));
  }
  // A new document: the catalog's JavaScript, OpenAction, /AA, names, outline, forms and XFA
  // stay behind; copyPages brings each page's inherited box, rotation and resources along.
  const target = await PDFDocument.create({ updateMetadata: false });
  const copies = await target.copyPages(source, source.getPageIndices());
  for (const copy of copies) target.addPage(copy);
  for (const [, object] of target.context.enumerateIndirectObjects()) dropActiveKeys(object);
  // pdf-lib writes every object it holds: an attachment or action copied along and cut off above
  // would still be in the file, so only what the document can reach is kept.
  dropUnreachable(target.context);
  return target.save({ useObjectStreams: false, addDefaultPage: false });
}

function dropUnreachable(context: PDFContext) {
  const reached = new Set<PDFRef>();
  const pending: PDFObject[] = [context.trailerInfo.Root, context.trailerInfo.Info].filter(
    (object): object is PDFObject => object !== undefined,
  );
  while (pending.length > 0) {
    const object = pending.pop()!;
    if (object instanceof PDFRef) {
      if (reached.has(object)) continue;
      reached.add(object);
      const target = context.lookup(object);
      if (target) pending.push(target);
    } else if (object instanceof PDFStream) {
      pending.push(object.dict);
    } else if (object instanceof PDFDict) {
      pending.push(...object.values());
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    }
  }
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reached.has(ref)) context.delete(ref);
  }
}

function dropActiveKeys(root: PDFObject) {
  const pending: PDFObject[] = [root];
  while (pending.length > 0) {
    const object = pending.pop()!;
    const dict = object instanceof PDFStream ? object.dict : object;
    if (dict instanceof PDFDict) {
      for (const key of dict.keys()) {
        if (KEYS_DROPPED_EVERYWHERE.has(key)) dict.delete(key);
        else pending.push(dict.get(key)!);
      }
    } else if (dict instanceof PDFArray) {
      pending.push(...dict.asArray());
    }
    // References are not followed: every indirect object is visited on its own.
  }
}
