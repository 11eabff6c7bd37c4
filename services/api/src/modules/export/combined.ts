// --combined: every exported application in one PDF, in index order, with one top-level bookmark
// per applicant at the first page of their application; each applicant's own bookmarks (pages,
// sections, documents) are carried over beneath it, closed.
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRef,
  type PDFObject,
} from 'pdf-lib';

export interface CombinedEntry {
  title: string;
  read: () => Promise<Uint8Array>;
}

interface OutlineNode {
  title: PDFObject;
  /** The target page (in the combined document) and the rest of the destination array. */
  dest: { page: PDFRef; view: PDFObject[] } | null;
  children: OutlineNode[];
}

const name = (key: string) => PDFName.of(key);

/** A source document's outline, its page references mapped to the copied pages. */
function readOutline(source: PDFDocument, pageMap: Map<PDFRef, PDFRef>): OutlineNode[] {
  const root = source.catalog.lookupMaybe(name('Outlines'), PDFDict);
  const walk = (first: PDFObject | undefined, depth: number): OutlineNode[] => {
    const nodes: OutlineNode[] = [];
    let ref = first;
    // Bounded against malformed (cyclic) outlines.
    for (let i = 0; ref instanceof PDFRef && i < 10_000 && depth < 16; i++) {
      const item = source.context.lookupMaybe(ref, PDFDict);
      if (!item) break;
      const title = item.get(name('Title'));
      const dest = item.lookupMaybe(name('Dest'), PDFArray);
      const target = dest?.get(0);
      const page = target instanceof PDFRef ? pageMap.get(target) : undefined;
      if (title) {
        nodes.push({
          title,
          // Only direct values (names, numbers, null) follow the page in a destination array.
          dest: page && dest ? { page, view: dest.asArray().slice(1) } : null,
          children: walk(item.get(name('First')), depth + 1),
        });
      }
      ref = item.get(name('Next'));
    }
    return nodes;
  };
  return root ? walk(root.get(name('First')), 0) : [];
}

/**
 * pdf-lib has no outline API: the /Outlines tree is written directly (PDF 32000-1 §12.3.3), each
 * level a doubly linked list under its parent; the applicants' sub-trees are closed (negative
 * /Count), so the root's /Count is the number of applicants.
 */
function writeOutline(pdf: PDFDocument, nodes: readonly OutlineNode[]) {
  const { context } = pdf;
  const writeLevel = (
    parent: PDFDict,
    parentRef: PDFRef,
    level: readonly OutlineNode[],
  ): number => {
    const refs = level.map(() => context.nextRef());
    let descendants = 0;
    level.forEach((node, i) => {
      const item = context.obj({}) as PDFDict;
      item.set(name('Title'), node.title);
      item.set(name('Parent'), parentRef);
      if (node.dest) item.set(name('Dest'), context.obj([node.dest.page, ...node.dest.view]));
      if (i > 0) item.set(name('Prev'), refs[i - 1]!);
      if (i < level.length - 1) item.set(name('Next'), refs[i + 1]!);
      if (node.children.length > 0) {
        const below = writeLevel(item, refs[i]!, node.children);
        item.set(name('Count'), PDFNumber.of(-below));
        descendants += below;
      }
      context.assign(refs[i]!, item);
    });
    if (level.length > 0) {
      parent.set(name('First'), refs[0]!);
      parent.set(name('Last'), refs.at(-1)!);
    }
    return level.length + descendants;
  };
  const rootRef = context.nextRef();
  const root = context.obj({ Type: 'Outlines' }) as PDFDict;
  writeLevel(root, rootRef, nodes);
  // Children are closed: only the top level is visible.
  root.set(name('Count'), PDFNumber.of(nodes.length));
  context.assign(rootRef, root);
  pdf.catalog.set(name('Outlines'), rootRef);
  pdf.catalog.set(name('PageMode'), name('UseOutlines'));
}

export async function buildCombinedPdf(entries: readonly CombinedEntry[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Applications');
  const outline: OutlineNode[] = [];
  for (const entry of entries) {
    const source = await PDFDocument.load(await entry.read(), { updateMetadata: false });
    const pages = await pdf.copyPages(source, source.getPageIndices());
    if (pages.length === 0) continue;
    for (const page of pages) pdf.addPage(page);
    const pageMap = new Map(source.getPages().map((p, i) => [p.ref, pages[i]!.ref] as const));
    outline.push({
      title: PDFHexString.fromText(entry.title),
      dest: { page: pages[0]!.ref, view: [name('XYZ'), PDFNull, PDFNull, PDFNull] },
      children: readOutline(source, pageMap),
    });
  }
  writeOutline(pdf, outline);
  return pdf.save({ addDefaultPage: false });
}
