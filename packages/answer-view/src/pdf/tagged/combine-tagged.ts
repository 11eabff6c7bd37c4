// Several application PDFs in one (the export's --combined file), still one tagged document: each
// application's structure tree goes under a Part titled with the applicant, below a Document
// element of the combined file, its StructParents keys shifted past the ones before it; one
// top-level bookmark per application, its own bookmarks beneath it, closed.
import { PDFBool, PDFDocument, PDFName, PDFHexString, PDFString, type PDFRef } from 'pdf-lib';
import { appendOutline, readOutline, type OutlineNode } from '../outline';
import { appendSourcePages, isTagged, mergeStructure } from './assemble-tagged';

export interface CombinedApplication {
  /** The application's bookmark and its Part's title: who applied. */
  title: string;
  read: () => Promise<Uint8Array>;
}

const FALLBACK_LANGUAGE = 'en-US';

export async function combineApplicationPdfs(
  applications: readonly CombinedApplication[],
  title: string,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const documentElement = startStructure(pdf);
  const outline: OutlineNode[] = [];
  let language: string | undefined;
  for (const application of applications) {
    const source = await PDFDocument.load(await application.read(), { updateMetadata: false });
    if (source.getPageCount() === 0) continue;
    language ??= readLanguage(source);
    const { copier, pages } = appendSourcePages(pdf, source);
    if (isTagged(source)) {
      mergeStructure(pdf, source, copier, documentElement, application.title, pages, {
        type: 'Part',
        unwrapDocument: true,
      });
    } else {
      // Rendered before the PDFs were tagged: its pages as they are, outside the tree.
      for (const page of pages) page.node.delete(PDFName.of('StructParents'));
    }
    const pageMap = new Map(source.getPages().map((p, i) => [p.ref, pages[i]!.ref] as const));
    // Closed: only the applicants show until one is opened.
    outline.push({
      title: application.title,
      dest: { page: pages[0]!.ref },
      children: readOutline(source, pageMap),
      open: false,
    });
  }
  describeDocument(pdf, title, language ?? FALLBACK_LANGUAGE);
  appendOutline(pdf, outline);
  pdf.catalog.set(PDFName.of('PageMode'), PDFName.of('UseOutlines'));
  return pdf.save({ useObjectStreams: false, addDefaultPage: false });
}

/** An empty structure tree (root, parent tree, one Document element); the Document's ref. */
function startStructure(pdf: PDFDocument): PDFRef {
  const rootRef = pdf.context.nextRef();
  const documentRef = pdf.context.register(
    pdf.context.obj({ Type: 'StructElem', S: 'Document', P: rootRef, K: [] }),
  );
  pdf.context.assign(
    rootRef,
    pdf.context.obj({
      Type: 'StructTreeRoot',
      K: [documentRef],
      ParentTree: pdf.context.obj({ Nums: [] }),
      ParentTreeNextKey: 0,
    }),
  );
  pdf.catalog.set(PDFName.of('StructTreeRoot'), rootRef);
  pdf.catalog.set(PDFName.of('MarkInfo'), pdf.context.obj({ Marked: PDFBool.True }));
  return documentRef;
}

function readLanguage(source: PDFDocument): string | undefined {
  const lang = source.catalog.lookup(PDFName.of('Lang'));
  return lang instanceof PDFString || lang instanceof PDFHexString
    ? lang.decodeText() || undefined
    : undefined;
}

/** Title and language as PDF/UA wants them: Info, XMP dc:title, DisplayDocTitle, /Lang. */
function describeDocument(pdf: PDFDocument, title: string, language: string) {
  pdf.setTitle(title, { showInWindowTitleBar: true });
  pdf.setLanguage(language);
  pdf.setProducer('admissions');
  const metadata = pdf.context.stream(new TextEncoder().encode(buildXmp(title)), {
    Type: 'Metadata',
    Subtype: 'XML',
  });
  pdf.catalog.set(PDFName.of('Metadata'), pdf.context.register(metadata));
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function buildXmp(title: string): string {
  return [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:pdfuaid="http://www.aiim.org/pdfua/ns/id/">',
    `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(title)}</rdf:li></rdf:Alt></dc:title>`,
    '<pdfuaid:part>1</pdfuaid:part>',
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}
