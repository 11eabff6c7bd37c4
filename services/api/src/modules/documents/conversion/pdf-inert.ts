// The PDF we store: only the pages of the upload, copied into a new document, with nothing a
// viewer could run, open or send. Form fields and other annotations were flattened into the page
// content by qpdf before this, so what is left of them is dropped here. A tagged upload keeps its
// structure tree (issue #32: the application PDF carries it under the document's section): the
// elements, the parent tree and the role map, without references to the dropped annotations.
import {
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFObjectCopier,
  PDFPage,
  PDFRef,
  PDFStream,
  PDFString,
  PDFHexString,
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
  // One copier for the pages and the structure tree, so that the elements' page references (/Pg)
  // land on the copied pages rather than copying each page (and its parent tree) again.
  const copier = PDFObjectCopier.for(source.context, target.context);
  const traversed = (copier as unknown as { traversedObjects: Map<PDFObject, PDFObject> })
    .traversedObjects;
  for (const page of pages) {
    const node = copier.copy(page.node);
    const ref = target.context.register(node);
    traversed.set(page.ref, ref);
    target.addPage(PDFPage.of(node, ref, target));
  }
  copyStructureTree(source, target, copier, traversed);
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

function copyStructureTree(
  source: PDFDocument,
  target: PDFDocument,
  copier: PDFObjectCopier,
  traversed: Map<PDFObject, PDFObject>,
) {
  const markInfo = source.catalog.lookupMaybe(PDFName.of('MarkInfo'), PDFDict);
  const rootRef = source.catalog.get(PDFName.of('StructTreeRoot'));
  if (markInfo?.get(PDFName.of('Marked')) !== PDFBool.True || !(rootRef instanceof PDFRef)) {
    for (const page of target.getPages()) page.node.delete(PDFName.of('StructParents'));
    return;
  }
  const root = source.context.lookup(rootRef);
  if (!(root instanceof PDFDict)) return;
  const copy = target.context.obj({ Type: 'StructTreeRoot' });
  const copyRef = target.context.register(copy);
  // The elements name the root as their parent: the copy.
  traversed.set(rootRef, copyRef);
  for (const key of ['K', 'ParentTree', 'ParentTreeNextKey', 'RoleMap', 'ClassMap']) {
    const value = root.get(PDFName.of(key));
    if (value !== undefined) copy.set(PDFName.of(key), copier.copy(value));
  }
  target.catalog.set(PDFName.of('StructTreeRoot'), copyRef);
  target.catalog.set(PDFName.of('MarkInfo'), target.context.obj({ Marked: true }));
  const lang = source.catalog.lookup(PDFName.of('Lang'));
  if (lang instanceof PDFString || lang instanceof PDFHexString) {
    target.catalog.set(PDFName.of('Lang'), lang);
  }
  // Object references (OBJR) name annotations, which are not kept.
  for (const [, object] of target.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict) || !object.has(PDFName.of('S'))) continue;
    const kids = object.lookup(PDFName.of('K'));
    const isObjectReference = (kid: PDFObject | undefined) =>
      target.context.lookup(kid) instanceof PDFDict &&
      target.context.lookup(kid, PDFDict).get(PDFName.of('Type'))?.toString() === '/OBJR';
    if (kids instanceof PDFArray) {
      for (let i = kids.size() - 1; i >= 0; i--) if (isObjectReference(kids.get(i))) kids.remove(i);
    } else if (isObjectReference(object.get(PDFName.of('K')))) {
      object.delete(PDFName.of('K'));
    }
  }
}
