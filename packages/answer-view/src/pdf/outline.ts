// `@admissions/answer-view/pdf-outline`: the one writer of PDF bookmarks, for the application PDF
// (its documents after react-pdf's pages and sections) and the export's combined PDF (one
// applicant per entry, their own bookmarks beneath). pdf-lib has no outline API, so the /Outlines
// tree is written directly (PDF 32000-1 §12.3.3): each level a doubly linked list under its
// parent; an open item's /Count is the number of its visible descendants, a closed item's the
// negative of the number that would be visible if it were opened. pdf-lib only: no react-pdf.
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRef,
  type PDFDocument,
  type PDFObject,
} from 'pdf-lib';

export interface OutlineNode {
  /** Text, or a title object read from another document (kept as it was encoded). */
  title: string | PDFObject;
  /** The target page and the rest of the destination array (default: `/XYZ null null null`). */
  dest: { page: PDFRef; view?: readonly PDFObject[] } | null;
  children?: readonly OutlineNode[];
  /** Children shown when the document opens; closed by default. */
  open?: boolean;
}

const name = (key: string) => PDFName.of(key);

/** Entries visible below a node when it is open. */
function visibleBelow(node: OutlineNode): number {
  return (node.children ?? []).reduce(
    (sum, child) => sum + 1 + (child.open ? visibleBelow(child) : 0),
    0,
  );
}

/**
 * A document's outline, its destinations mapped to pages of another document (`pageMap`: the
 * source's page → the copy); an entry whose page was not copied keeps its title, without a target.
 */
export function readOutline(
  source: PDFDocument,
  pageMap: ReadonlyMap<PDFRef, PDFRef>,
): OutlineNode[] {
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
      const count = item.get(name('Count'));
      if (title) {
        nodes.push({
          title,
          // Only direct values (names, numbers, null) follow the page in a destination array.
          dest: page && dest ? { page, view: dest.asArray().slice(1) } : null,
          children: walk(item.get(name('First')), depth + 1),
          open: count instanceof PDFNumber && count.asNumber() > 0,
        });
      }
      ref = item.get(name('Next'));
    }
    return nodes;
  };
  return root ? walk(root.get(name('First')), 0) : [];
}

/** Appends `nodes` after the document's top-level bookmarks (creating the outline if needed). */
export function appendOutline(pdf: PDFDocument, nodes: readonly OutlineNode[]): void {
  if (nodes.length === 0) return;
  const { context, catalog } = pdf;
  const existing = catalog.get(name('Outlines'));
  const rootRef =
    existing instanceof PDFRef
      ? existing
      : context.register(context.obj({ Type: 'Outlines', Count: 0 }));
  catalog.set(name('Outlines'), rootRef);
  const root = context.lookup(rootRef, PDFDict);

  const writeLevel = (parent: PDFDict, parentRef: PDFRef, level: readonly OutlineNode[]) => {
    const refs = level.map(() => context.nextRef());
    const previous = parent.get(name('Last'));
    level.forEach((node, i) => {
      const item = context.obj({}) as PDFDict;
      item.set(
        name('Title'),
        typeof node.title === 'string' ? PDFHexString.fromText(node.title) : node.title,
      );
      item.set(name('Parent'), parentRef);
      if (node.dest) {
        const view = node.dest.view ?? [name('XYZ'), PDFNull, PDFNull, PDFNull];
        item.set(name('Dest'), context.obj([node.dest.page, ...view]));
      }
      const prev = i > 0 ? refs[i - 1] : previous;
      if (prev instanceof PDFRef) {
        item.set(name('Prev'), prev);
        if (i === 0) context.lookup(prev, PDFDict).set(name('Next'), refs[0]!);
      }
      if (i < level.length - 1) item.set(name('Next'), refs[i + 1]!);
      if (node.children && node.children.length > 0) {
        writeLevel(item, refs[i]!, node.children);
        const below = visibleBelow(node);
        item.set(name('Count'), PDFNumber.of(node.open ? below : -below));
      }
      context.assign(refs[i]!, item);
    });
    if (!(previous instanceof PDFRef)) parent.set(name('First'), refs[0]!);
    parent.set(name('Last'), refs.at(-1)!);
  };
  writeLevel(root, rootRef, nodes);

  const count = root.get(name('Count'));
  const visible = count instanceof PDFNumber ? Math.abs(count.asNumber()) : 0;
  const added = nodes.reduce((sum, node) => sum + 1 + (node.open ? visibleBelow(node) : 0), 0);
  root.set(name('Count'), PDFNumber.of(visible + added));
}
