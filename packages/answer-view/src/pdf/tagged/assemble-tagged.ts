// The whole tagged application PDF: the tagged answer pages, then each converted document with
// its own bookmark, page numbers on every page. A tagged document keeps its structure tree: it is
// copied under a Sect of its own (titled with the question) below the application's Document
// element, its pages' StructParents keys and its parent tree shifted past the application's, so
// the file stays one tagged document. An untagged document is appended as it is; its title is
// returned so the staff cover can say so. Every document's first page gets its title drawn in a
// band over its top edge, tagged as the H1 its section starts with, so a screen-reader user moving
// by headings reaches each document (an untagged one too: its section holds just the H1).
// The staff PDF then ends with the received checklist items (issue #30): each a section pdfkit
// lays out with the answers (its H1, details and typed letter), moved here after the documents,
// its PDF's pages after it and their structure under its Sect, with a top-level bookmark.
import {
  beginMarkedContent,
  degrees,
  endMarkedContent,
  PDFArray,
  PDFBool,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  PDFObjectCopier,
  PDFOperator,
  PDFOperatorNames,
  PDFPage,
  PDFRef,
  PDFHexString,
  PDFString,
  rgb,
  type PDFEmbeddedPage,
  type PDFObject,
} from 'pdf-lib';
import { stripBidiControls } from '../../display-text';
import type {
  AnswerView,
  ApplicationCover,
  PdfChecklistItemInput,
  PdfDocumentInput,
} from '../../view-model';
import { appendOutline, type OutlineNode } from '../outline';
import {
  DOCUMENT_BAND,
  DOCUMENT_BAND_BASELINE,
  growBottomBand,
  growTopBand,
  placeStrip,
  rotationOf,
  TITLE_BAND,
  TITLE_BAND_BASELINE,
} from '../page-band';
import type { PdfFontPaths } from '../fonts';
import { findPageParents, prependKid } from './stamp-notes';
import {
  renderTaggedAnswerPages,
  type ChecklistSection,
  type PageNumberStrip,
  type TitleStrip,
} from './tagged-answer-pages';

export interface TaggedPdfOptions {
  fontPaths?: PdfFontPaths;
}

export async function renderTaggedApplicationPdf(
  view: AnswerView,
  cover: ApplicationCover,
  documents: readonly PdfDocumentInput[] = [],
  checklist: readonly PdfChecklistItemInput[] = [],
  options: TaggedPdfOptions = {},
): Promise<Uint8Array> {
  return (await renderCountedTaggedApplicationPdf(view, cover, documents, checklist, options))
    .bytes;
}

/**
 * The same file and its page count, known here without parsing the result again (a pdf-lib load
 * of an application with three documents costs about 18 ms, a sixth of an export's render).
 * `checklist` (the staff PDF's received items) ends the file after the documents.
 */
export async function renderCountedTaggedApplicationPdf(
  view: AnswerView,
  cover: ApplicationCover,
  documents: readonly PdfDocumentInput[] = [],
  checklist: readonly PdfChecklistItemInput[] = [],
  options: TaggedPdfOptions = {},
): Promise<{ bytes: Uint8Array; pages: number }> {
  const sources = [];
  for (const document of documents) {
    const source = await PDFDocument.load(document.bytes, { updateMetadata: false });
    if (source.getPageCount() > 0) sources.push({ document, source, tagged: isTagged(source) });
  }
  const items = [];
  for (const item of checklist) {
    const loaded = item.bytes
      ? await PDFDocument.load(item.bytes, { updateMetadata: false })
      : undefined;
    const source = loaded && loaded.getPageCount() > 0 ? loaded : undefined;
    // Shown to staff like an answer: no bidi control may reorder a title or a line of the letter.
    const title = stripBidiControls(item.title);
    items.push({ title, item, source, tagged: source ? isTagged(source) : false });
  }
  const numberStrips = (source: PDFDocument): PageNumberStrip[] =>
    source.getPages().map((page) => ({
      width: displayedWidth(page),
      height: DOCUMENT_BAND,
      baseline: DOCUMENT_BAND_BASELINE,
    }));
  const strips: PageNumberStrip[] = sources.flatMap(({ source }) => numberStrips(source));
  const titles: TitleStrip[] = sources.map(({ document, source }) => ({
    title: document.title,
    width: displayedWidth(source.getPage(0)),
    height: TITLE_BAND,
    baseline: TITLE_BAND_BASELINE,
  }));
  const sections: ChecklistSection[] = items.map(({ title, item, source }) => ({
    title,
    details: item.details.map((row) => ({
      label: stripBidiControls(row.label),
      value: stripBidiControls(row.value),
    })),
    text: item.text ? stripBidiControls(item.text) : null,
    strips: source ? numberStrips(source) : [],
  }));
  const untagged = [
    ...sources.filter((s) => !s.tagged && !isImage(s.document)).map((s) => s.document.title),
    ...items.filter((i) => i.source && !i.tagged).map((i) => i.title),
  ];
  const shownCover =
    cover.listUntaggedDocuments && untagged.length > 0
      ? { ...cover, untaggedDocuments: untagged }
      : cover;
  const answers = await renderTaggedAnswerPages(
    view,
    shownCover,
    strips,
    titles,
    sections,
    options.fontPaths,
  );
  const appendedPages = [...sources, ...items].reduce(
    (sum, { source }) => sum + (source?.getPageCount() ?? 0),
    0,
  );
  const pages =
    answers.pages + answers.checklistPages.reduce((sum, n) => sum + n, 0) + appendedPages;
  // Nothing to append or move: pdfkit's file is already the whole tagged PDF, with its outline.
  // Loading and saving it again with pdf-lib would cost as much as rendering it.
  if (sources.length === 0 && items.length === 0) return { bytes: answers.bytes, pages };

  const pdf = await PDFDocument.load(answers.bytes, { updateMetadata: false });
  // Each checklist section's first page, found before any page moves.
  let sectionStart = answers.pages;
  const sectionPages = answers.checklistPages.map((count) => {
    const page = pdf.getPage(sectionStart);
    sectionStart += count;
    return page.ref;
  });
  const numberStripCount = strips.length + sections.reduce((n, s) => n + s.strips.length, 0);
  const stripPages = pdf.getPages().slice(pdf.getPageCount() - numberStripCount - titles.length);
  const embedded = await pdf.embedPages(stripPages);
  const stamps = embedded.slice(0, numberStripCount);
  const headings = embedded.slice(numberStripCount);
  for (let i = stripPages.length - 1; i >= 0; i--) pdf.removePage(pdf.getPageCount() - 1);

  const documentElement = findDocumentElement(pdf);
  // pdfkit laid the checklist sections out last: they leave the Document element while the
  // documents' sections are added, and come back after them, in the order of the pages.
  const checklistSects = detachLastKids(pdf, documentElement, items.length);
  const bookmarks: OutlineNode[] = [];
  let stampIndex = 0;
  let headingIndex = 0;
  // Documents go between the answers and the checklist sections.
  let at = answers.pages;
  for (const { document, source, tagged } of sources) {
    const { copier, pages } = appendSourcePages(pdf, source, at);
    at += pages.length;
    let sect: PDFRef;
    if (tagged) sect = mergeStructure(pdf, source, copier, documentElement, document.title, pages);
    else {
      for (const page of pages) page.node.delete(PDFName.of('StructParents'));
      sect = isImage(document)
        ? tagFigures(
            pdf,
            documentElement,
            document.title,
            `${document.title}: ${document.fileName}`,
            pages,
          )
        : addSection(pdf, documentElement, document.title);
    }
    stampTitle(pdf, pages[0]!, headings[headingIndex++], sect);
    for (const page of pages) stampPageNumber(page, stamps[stampIndex++]);
    bookmarks.push({ title: document.title, dest: { page: pages[0]!.ref } });
  }
  const documentKids = pdf.context
    .lookup(documentElement, PDFDict)
    .lookup(PDFName.of('K'), PDFArray);
  items.forEach(({ title, source, tagged }, k) => {
    const sect = checklistSects[k]!;
    documentKids.push(sect);
    bookmarks.push({ title, dest: { page: sectionPages[k]! } });
    at += answers.checklistPages[k]!;
    if (!source) return;
    const { copier, pages } = appendSourcePages(pdf, source, at);
    at += pages.length;
    if (tagged) mergeStructure(pdf, source, copier, documentElement, title, pages, { into: sect });
    else for (const page of pages) page.node.delete(PDFName.of('StructParents'));
    for (const page of pages) stampPageNumber(page, stamps[stampIndex++]);
  });
  appendOutline(pdf, bookmarks);
  return { bytes: await pdf.save({ useObjectStreams: false, addDefaultPage: false }), pages };
}

/** Takes the last `count` children off a structure element; returns them in their order. */
function detachLastKids(pdf: PDFDocument, element: PDFRef, count: number): PDFRef[] {
  const kids = pdf.context.lookup(element, PDFDict).lookup(PDFName.of('K'), PDFArray);
  const detached: PDFRef[] = [];
  for (let i = 0; i < count; i++) {
    const kid = kids.get(kids.size() - 1);
    // pdfkit writes every structure element as an indirect object.
    if (!(kid instanceof PDFRef)) throw new Error('a checklist section is not an indirect object');
    detached.unshift(kid);
    kids.remove(kids.size() - 1);
  }
  return detached;
}

/** The width of the page as it is shown, turned by its /Rotate. */
function displayedWidth(page: PDFPage): number {
  const box = page.getCropBox();
  return rotationOf(page) % 180 !== 0 ? box.height : box.width;
}

/**
 * Appends every page of `source` to `pdf`; the copier it used carries on to the source's other
 * objects, so that structure elements and bookmarks pointing at a page get the same copy.
 */
export function appendSourcePages(
  pdf: PDFDocument,
  source: PDFDocument,
  /** Where the pages go (a page index of `pdf`); after its last page when left out. */
  at?: number,
): { copier: PDFObjectCopier; pages: PDFPage[] } {
  const copier = PDFObjectCopier.for(source.context, pdf.context);
  const pages: PDFPage[] = [];
  for (const sourcePage of source.getPages()) {
    const node = copier.copy(sourcePage.node);
    const ref = pdf.context.register(node);
    seedCopy(copier, sourcePage.ref, ref);
    const page = PDFPage.of(node, ref, pdf);
    if (at === undefined) pdf.addPage(page);
    else pdf.insertPage(at + pages.length, page);
    pages.push(page);
  }
  return { copier, pages };
}

/** A converted image: its pages hold nothing but the picture. */
function isImage(document: PdfDocumentInput): boolean {
  return /\.(jpe?g|png)$/i.test(document.fileName ?? '');
}

/**
 * A text string: plain when it is printable ASCII without delimiters (some readers, poppler's
 * structure dump among them, show only those), UTF-16 otherwise.
 */
function encodeText(text: string): PDFString | PDFHexString {
  return /^[\x20-\x27\x2a-\x5b\x5d-\x7e]*$/.test(text)
    ? PDFString.of(text)
    : PDFHexString.fromText(text);
}

/** A new Sect (or Part) under the Document element, titled with the question (or applicant). */
function addSection(
  pdf: PDFDocument,
  documentElement: PDFRef,
  title: string,
  type: 'Sect' | 'Part' = 'Sect',
): PDFRef {
  const sect = pdf.context.obj({
    Type: 'StructElem',
    S: type,
    P: documentElement,
    T: encodeText(title),
    K: [],
  });
  const ref = pdf.context.register(sect);
  pdf.context.lookup(documentElement, PDFDict).lookup(PDFName.of('K'), PDFArray).push(ref);
  return ref;
}

/**
 * Tags each page of a converted image as one Figure with alternative text: the page's content
 * becomes the first marked-content sequence of a fresh StructParents key in the parent tree.
 */
function tagFigures(
  pdf: PDFDocument,
  documentElement: PDFRef,
  title: string,
  alt: string,
  pages: readonly PDFPage[],
): PDFRef {
  const sectRef = addSection(pdf, documentElement, title);
  const sectKids = pdf.context.lookup(sectRef, PDFDict).lookup(PDFName.of('K'), PDFArray);
  for (const page of pages) {
    const parents = claimPageParents(pdf, page);
    const mcid = parents.size();
    const figure = pdf.context.register(
      pdf.context.obj({
        Type: 'StructElem',
        S: 'Figure',
        P: sectRef,
        Pg: page.ref,
        Alt: encodeText(alt),
        K: mcid,
      }),
    );
    parents.push(figure);
    sectKids.push(figure);
    const contents = page.node.get(PDFName.of('Contents'));
    const existing = pdf.context.lookup(contents);
    const streams = existing instanceof PDFArray ? existing.asArray() : contents ? [contents] : [];
    const open = pdf.context.register(pdf.context.stream(`/Figure <</MCID ${mcid}>> BDC\n`));
    const close = pdf.context.register(pdf.context.stream('\nEMC\n'));
    page.node.set(PDFName.of('Contents'), pdf.context.obj([open, ...streams, close]));
  }
  return sectRef;
}

export function isTagged(source: PDFDocument): boolean {
  const markInfo = source.catalog.lookupMaybe(PDFName.of('MarkInfo'), PDFDict);
  return (
    markInfo?.get(PDFName.of('Marked')) === PDFBool.True &&
    source.catalog.get(PDFName.of('StructTreeRoot')) instanceof PDFRef
  );
}

function seedCopy(copier: PDFObjectCopier, from: PDFObject, to: PDFObject) {
  (copier as unknown as { traversedObjects: Map<PDFObject, PDFObject> }).traversedObjects.set(
    from,
    to,
  );
}

function findDocumentElement(pdf: PDFDocument): PDFRef {
  const root = pdf.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
  const kids = root.lookup(PDFName.of('K'), PDFArray);
  return kids.get(0) as PDFRef;
}

/** Every key → value of a number tree, flattened. */
function readNumberTree(pdf: PDFDocument, node: PDFDict | undefined, into: [number, PDFObject][]) {
  if (!node) return into;
  const nums = node.lookupMaybe(PDFName.of('Nums'), PDFArray);
  for (let i = 0; nums && i + 1 < nums.size(); i += 2) {
    const key = nums.lookup(i);
    if (key instanceof PDFNumber) into.push([key.asNumber(), nums.get(i + 1)]);
  }
  const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
  for (let i = 0; kids && i < kids.size(); i++) {
    readNumberTree(pdf, kids.lookupMaybe(i, PDFDict), into);
  }
  return into;
}

/** A structure element's (or the root's) children: /K is one object or an array of them. */
function listKids(source: PDFDocument, element: PDFDict): PDFObject[] {
  const kids = element.get(PDFName.of('K'));
  const resolved = kids ? source.context.lookup(kids) : undefined;
  return resolved instanceof PDFArray ? resolved.asArray() : kids ? [kids] : [];
}

export function mergeStructure(
  pdf: PDFDocument,
  source: PDFDocument,
  copier: PDFObjectCopier,
  documentElement: PDFRef,
  title: string,
  pages: readonly PDFPage[],
  options: {
    type?: 'Sect' | 'Part';
    /** Put the children of the source's one Document element, not the element, in the section. */
    unwrapDocument?: boolean;
    /** A section already in the tree to put the source's structure in (after its children). */
    into?: PDFRef;
  } = {},
): PDFRef {
  const sourceRootRef = source.catalog.get(PDFName.of('StructTreeRoot')) as PDFRef;
  const sourceRoot = source.context.lookup(sourceRootRef, PDFDict);
  const root = pdf.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
  const parentTree = root.lookup(PDFName.of('ParentTree'), PDFDict);
  const nums = parentTree.lookup(PDFName.of('Nums'), PDFArray);
  const nextKey = root.lookupMaybe(PDFName.of('ParentTreeNextKey'), PDFNumber)?.asNumber() ?? 0;

  const sectRef = options.into ?? addSection(pdf, documentElement, title, options.type);
  const sect = pdf.context.lookup(sectRef, PDFDict);
  // The source's elements name its root as their parent: they become the Sect's children.
  seedCopy(copier, sourceRootRef, sectRef);
  let parent = sourceRoot;
  const only = listKids(source, sourceRoot);
  const documentKid = only.length === 1 ? source.context.lookup(only[0]) : undefined;
  if (
    options.unwrapDocument &&
    documentKid instanceof PDFDict &&
    documentKid.get(PDFName.of('S')) === PDFName.of('Document')
  ) {
    // Its children name it as their parent: they become the section's too.
    seedCopy(copier, only[0]!, sectRef);
    parent = documentKid;
  }
  const sectKids = sect.lookup(PDFName.of('K'), PDFArray);
  for (const kid of listKids(source, parent)) sectKids.push(copier.copy(kid));

  let maxKey = -1;
  for (const [key, value] of readNumberTree(
    source,
    sourceRoot.lookupMaybe(PDFName.of('ParentTree'), PDFDict),
    [],
  ).sort((a, b) => a[0] - b[0])) {
    nums.push(PDFNumber.of(key + nextKey));
    nums.push(copier.copy(value));
    maxKey = Math.max(maxKey, key);
  }
  root.set(PDFName.of('ParentTreeNextKey'), PDFNumber.of(nextKey + maxKey + 1));
  const shift = (dict: PDFDict, key: string) => {
    const value = dict.lookupMaybe(PDFName.of(key), PDFNumber);
    if (value) dict.set(PDFName.of(key), PDFNumber.of(value.asNumber() + nextKey));
  };
  for (const page of pages) {
    shift(page.node, 'StructParents');
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    for (let i = 0; annots && i < annots.size(); i++) {
      const annot = annots.lookupMaybe(i, PDFDict);
      if (annot) shift(annot, 'StructParent');
    }
  }
  // Element types the source maps onto standard ones keep their mapping.
  const roleMap = sourceRoot.lookupMaybe(PDFName.of('RoleMap'), PDFDict);
  if (roleMap) {
    let ownMap = root.lookupMaybe(PDFName.of('RoleMap'), PDFDict);
    if (!ownMap) {
      ownMap = pdf.context.obj({});
      root.set(PDFName.of('RoleMap'), ownMap);
    }
    for (const [name, value] of roleMap.entries()) {
      if (!ownMap.has(name)) ownMap.set(name, copier.copy(value));
    }
  }
  return sectRef;
}

/**
 * Grows the page's visible box by a band along the edge shown at the bottom (an uploaded page has
 * no margin we can trust), paints it white and draws the number strip into it, all as an artifact.
 */
function stampPageNumber(page: PDFPage, stamp: PDFEmbeddedPage | undefined) {
  const { band, rotation } = growBottomBand(page);
  page.pushOperators(beginMarkedContent('Artifact'));
  page.drawRectangle({ ...band, color: rgb(1, 1, 1), borderWidth: 0 });
  if (stamp) {
    // The strip's own bottom edge goes on the page's displayed bottom edge, turned with the page.
    page.drawPage(stamp, { ...placeStrip(band, rotation), rotate: degrees(rotation) });
  }
  page.pushOperators(endMarkedContent());
}

/**
 * Grows a band over the document's first page as shown, paints it white as an artifact and draws
 * the title strip into it inside an H1's marked-content sequence; the H1 becomes the first child
 * of the document's section, so its heading is the first thing read of the document.
 */
function stampTitle(
  pdf: PDFDocument,
  page: PDFPage,
  title: PDFEmbeddedPage | undefined,
  sectRef: PDFRef,
) {
  const { band, rotation } = growTopBand(page);
  page.pushOperators(beginMarkedContent('Artifact'));
  page.drawRectangle({ ...band, color: rgb(1, 1, 1), borderWidth: 0 });
  page.pushOperators(endMarkedContent());
  if (!title) return;
  const parents = claimPageParents(pdf, page);
  const mcid = parents.size();
  const heading = pdf.context.register(
    pdf.context.obj({ Type: 'StructElem', S: 'H1', P: sectRef, Pg: page.ref, K: mcid }),
  );
  parents.push(heading);
  prependKid(pdf.context.lookup(sectRef, PDFDict), heading);
  page.pushOperators(
    PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [
      PDFName.of('H1'),
      // An inline property list, written by its toString as `<< /MCID n >>` (see stamp-notes.ts).
      pdf.context.obj({ MCID: mcid }) as unknown as PDFName,
    ]),
  );
  page.drawPage(title, { ...placeStrip(band, rotation), rotate: degrees(rotation) });
  page.pushOperators(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
}

/**
 * The parent-tree array of the page's marked content: the one of its StructParents key, or, for a
 * page without one (an untagged document's), a new empty one under the tree's next key.
 */
function claimPageParents(pdf: PDFDocument, page: PDFPage): PDFArray {
  const key = page.node.lookupMaybe(PDFName.of('StructParents'), PDFNumber)?.asNumber();
  const existing = key === undefined ? undefined : findPageParents(pdf, key);
  if (existing) return existing;
  const root = pdf.catalog.lookup(PDFName.of('StructTreeRoot'), PDFDict);
  const nums = root.lookup(PDFName.of('ParentTree'), PDFDict).lookup(PDFName.of('Nums'), PDFArray);
  const nextKey = root.lookupMaybe(PDFName.of('ParentTreeNextKey'), PDFNumber)?.asNumber() ?? 0;
  const parents = pdf.context.obj([]);
  page.node.set(PDFName.of('StructParents'), PDFNumber.of(nextKey));
  // Appended last, as the tree's keys must stay in ascending order: no key is above the next one.
  nums.push(PDFNumber.of(nextKey));
  nums.push(parents);
  root.set(PDFName.of('ParentTreeNextKey'), PDFNumber.of(nextKey + 1));
  return parents;
}
