// Word documents as Word writes them in daily use, built in code: comments (with the Word 2016+
// commentsExtended/commentsIds parts), tracked changes, a native chart with its data workbook,
// footnotes, header and footer, a template-based document; plus hostile variants and an
// encrypted (CFB) Word file. Every part is a minimal but valid OOXML part.
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { buildPng } from './document-fixtures';

const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const CT_WORD = 'application/vnd.openxmlformats-officedocument.wordprocessingml';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export function wParagraph(text: string): string {
  return `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;
}

interface Part {
  name: string;
  xml: string;
  contentType?: string;
}

export interface WordPackage {
  body: string;
  /** Relationships of word/document.xml (raw <Relationship> elements). */
  documentRels?: string;
  parts?: Part[];
  /** Binary entries (no content-type override). */
  binaries?: Record<string, Uint8Array>;
  /** Extra <Default>/<Override> elements for [Content_Types].xml. */
  contentTypes?: string;
  /** Namespace declarations on <w:document> beyond w: and r:. */
  namespaces?: string;
  /** The prefix used for the WordprocessingML namespace (Word always uses w:; others need not). */
  sectPr?: string;
  level?: 0 | 6 | 9;
}

/** A docx zip from its body, relationships and extra parts. */
export function buildWordPackage(pkg: WordPackage): Uint8Array {
  const overrides = (pkg.parts ?? [])
    .filter((p) => p.contentType)
    .map((p) => `<Override PartName="/${p.name}" ContentType="${p.contentType}"/>`)
    .join('');
  const contentTypes = `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${pkg.contentTypes ?? ''}<Override PartName="/word/document.xml" ContentType="${CT_WORD}.document.main+xml"/>${overrides}</Types>`;
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(contentTypes),
    '_rels/.rels': strToU8(
      `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/document.xml': strToU8(
      `${XML_DECL}<w:document xmlns:w="${W}" xmlns:r="${REL}" ${pkg.namespaces ?? ''}><w:body>${pkg.body}${pkg.sectPr ?? '<w:sectPr/>'}</w:body></w:document>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `${XML_DECL}<Relationships xmlns="${PKG_RELS}">${pkg.documentRels ?? ''}</Relationships>`,
    ),
  };
  for (const part of pkg.parts ?? []) files[part.name] = strToU8(part.xml);
  Object.assign(files, pkg.binaries);
  return zipSync(files, { level: pkg.level ?? 6 });
}

/** A comment anchored on a sentence, with the parts Word 2016+ writes beside comments.xml. */
export function buildCommentedDocx(): Uint8Array {
  const W14 = 'http://schemas.microsoft.com/office/word/2010/wordml';
  const W15 = 'http://schemas.microsoft.com/office/word/2012/wordml';
  const W16CID = 'http://schemas.microsoft.com/office/word/2016/wordml/cid';
  return buildWordPackage({
    body:
      wParagraph('My statement about commented engines.') +
      `<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>Reviewed sentence here.</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>`,
    documentRels:
      `<Relationship Id="rId5" Type="${REL}/comments" Target="comments.xml"/>` +
      `<Relationship Id="rId6" Type="http://schemas.microsoft.com/office/2011/relationships/commentsExtended" Target="commentsExtended.xml"/>` +
      `<Relationship Id="rId7" Type="http://schemas.microsoft.com/office/2016/09/relationships/commentsIds" Target="commentsIds.xml"/>`,
    parts: [
      {
        name: 'word/comments.xml',
        contentType: `${CT_WORD}.comments+xml`,
        xml: `${XML_DECL}<w:comments xmlns:w="${W}" xmlns:w14="${W14}"><w:comment w:id="0" w:author="Reviewer" w:date="2024-01-02T03:04:05Z" w:initials="R"><w:p w14:paraId="1A2B3C4D"><w:r><w:t>Margin remark from reviewer.</w:t></w:r></w:p></w:comment></w:comments>`,
      },
      {
        name: 'word/commentsExtended.xml',
        contentType: `${CT_WORD}.commentsExtended+xml`,
        xml: `${XML_DECL}<w15:commentsEx xmlns:w15="${W15}"><w15:commentEx w15:paraId="1A2B3C4D" w15:done="0"/></w15:commentsEx>`,
      },
      {
        name: 'word/commentsIds.xml',
        contentType: `${CT_WORD}.commentsIds+xml`,
        xml: `${XML_DECL}<w16cid:commentsIds xmlns:w16cid="${W16CID}"><w16cid:commentId w16cid:paraId="1A2B3C4D" w16cid:durableId="5E6F7081"/></w16cid:commentsIds>`,
      },
    ],
  });
}

/** An insertion and a deletion recorded as tracked changes. */
export function buildTrackedChangesDocx(): Uint8Array {
  return buildWordPackage({
    body:
      wParagraph('Tracked statement begins.') +
      `<w:p><w:r><w:t xml:space="preserve">Kept words </w:t></w:r><w:ins w:id="1" w:author="Editor" w:date="2024-01-02T03:04:05Z"><w:r><w:t>inserted words</w:t></w:r></w:ins><w:del w:id="2" w:author="Editor" w:date="2024-01-02T03:04:05Z"><w:r><w:delText>deleted words</w:delText></w:r></w:del></w:p>`,
  });
}

/** A footnote and an endnote referenced from the body. */
export function buildFootnotesDocx(): Uint8Array {
  const separators = (kind: 'footnote' | 'endnote') =>
    `<w:${kind} w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:${kind}><w:${kind} w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:${kind}>`;
  return buildWordPackage({
    body: `<w:p><w:r><w:t>Statement with a note.</w:t></w:r><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r><w:r><w:endnoteReference w:id="1"/></w:r></w:p>`,
    documentRels:
      `<Relationship Id="rId8" Type="${REL}/footnotes" Target="footnotes.xml"/>` +
      `<Relationship Id="rId9" Type="${REL}/endnotes" Target="endnotes.xml"/>`,
    parts: [
      {
        name: 'word/footnotes.xml',
        contentType: `${CT_WORD}.footnotes+xml`,
        xml: `${XML_DECL}<w:footnotes xmlns:w="${W}">${separators('footnote')}<w:footnote w:id="1"><w:p><w:r><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> Footnote source cited.</w:t></w:r></w:p></w:footnote></w:footnotes>`,
      },
      {
        name: 'word/endnotes.xml',
        contentType: `${CT_WORD}.endnotes+xml`,
        xml: `${XML_DECL}<w:endnotes xmlns:w="${W}">${separators('endnote')}<w:endnote w:id="1"><w:p><w:r><w:endnoteRef/></w:r><w:r><w:t xml:space="preserve"> Endnote remark given.</w:t></w:r></w:p></w:endnote></w:endnotes>`,
      },
    ],
  });
}

/** A default header and footer. */
export function buildHeaderFooterDocx(): Uint8Array {
  return buildWordPackage({
    body: wParagraph('Body of the statement.'),
    sectPr:
      '<w:sectPr><w:headerReference w:type="default" r:id="rId10"/><w:footerReference w:type="default" r:id="rId11"/></w:sectPr>',
    documentRels:
      `<Relationship Id="rId10" Type="${REL}/header" Target="header1.xml"/>` +
      `<Relationship Id="rId11" Type="${REL}/footer" Target="footer1.xml"/>`,
    parts: [
      {
        name: 'word/header1.xml',
        contentType: `${CT_WORD}.header+xml`,
        xml: `${XML_DECL}<w:hdr xmlns:w="${W}">${wParagraph('Running header text')}</w:hdr>`,
      },
      {
        name: 'word/footer1.xml',
        contentType: `${CT_WORD}.footer+xml`,
        xml: `${XML_DECL}<w:ftr xmlns:w="${W}">${wParagraph('Running footer text')}</w:ftr>`,
      },
    ],
  });
}

/** A minimal xlsx (the chart's data workbook Word embeds). */
function buildChartWorkbook(): Uint8Array {
  const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const CT_SHEET = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  return zipSync({
    '[Content_Types].xml': strToU8(
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${CT_SHEET}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT_SHEET}.worksheet+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `${XML_DECL}<workbook xmlns="${S}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
    ),
    'xl/worksheets/sheet1.xml': strToU8(
      `${XML_DECL}<worksheet xmlns="${S}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Year</t></is></c><c r="B1" t="inlineStr"><is><t>Grade</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>2023</t></is></c><c r="B2"><v>91</v></c></row></sheetData></worksheet>`,
    ),
  });
}

/** A native bar chart (word/charts/chart1.xml) with its data workbook under word/embeddings/. */
export function buildChartDocx(): Uint8Array {
  const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
  const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
  const drawing = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="3000000" cy="2000000"/><wp:docPr id="1" name="Chart 1"/><a:graphic><a:graphicData uri="${C}"><c:chart r:id="rId12"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  const chart = `${XML_DECL}<c:chartSpace xmlns:c="${C}" xmlns:a="${A}" xmlns:r="${REL}"><c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Grades by year</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/></c:title><c:plotArea><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Grade</c:v></c:pt></c:strCache></c:strRef></c:tx><c:cat><c:strRef><c:f>Sheet1!$A$2</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>2023</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sheet1!$B$2</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="1"/><c:pt idx="0"><c:v>91</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser><c:axId val="1"/><c:axId val="2"/></c:barChart><c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx><c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx></c:plotArea></c:chart><c:externalData r:id="rId1"><c:autoUpdate val="0"/></c:externalData></c:chartSpace>`;
  return buildWordPackage({
    body: wParagraph('Statement with a chart of grades.') + drawing,
    namespaces: `xmlns:wp="${WP}" xmlns:a="${A}" xmlns:c="${C}"`,
    documentRels: `<Relationship Id="rId12" Type="${REL}/chart" Target="charts/chart1.xml"/>`,
    contentTypes:
      '<Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/>',
    parts: [
      {
        name: 'word/charts/chart1.xml',
        contentType: 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml',
        xml: chart,
      },
      {
        name: 'word/charts/_rels/chart1.xml.rels',
        xml: `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${REL}/package" Target="../embeddings/Microsoft_Excel_Worksheet.xlsx"/></Relationships>`,
      },
    ],
    binaries: { 'word/embeddings/Microsoft_Excel_Worksheet.xlsx': buildChartWorkbook() },
  });
}

/**
 * A document based on a template, as Word writes it: settings.xml names the template through an
 * external attachedTemplate relationship (here pointing at `templateUrl`).
 */
export function buildTemplateDocx(templateUrl: string, quote: '"' | "'" = '"'): Uint8Array {
  return buildWordPackage({
    body: wParagraph('Statement written from a template.'),
    documentRels: `<Relationship Id="rId13" Type="${REL}/settings" Target="settings.xml"/>`,
    parts: [
      {
        name: 'word/settings.xml',
        contentType: `${CT_WORD}.settings+xml`,
        xml: `${XML_DECL}<w:settings xmlns:w="${W}" xmlns:r="${REL}"><w:attachedTemplate r:id="rId1"/><w:defaultTabStop w:val="720"/></w:settings>`,
      },
      {
        name: 'word/_rels/settings.xml.rels',
        xml: `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id=${quote}rId1${quote} Type=${quote}${REL}/attachedTemplate${quote} Target=${quote}${templateUrl}${quote} TargetMode=${quote}External${quote}/></Relationships>`,
      },
    ],
  });
}

const IMAGE_DRAWING = (attr: string) =>
  `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="914400" cy="914400"/><wp:docPr id="2" name="picture"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="2" name="picture"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip ${attr}/></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/** An image linked (not embedded) from `url`, the relationship written with single quotes. */
export function buildSingleQuotedExternalImageDocx(url: string): Uint8Array {
  return buildWordPackage({
    body: wParagraph('Statement with a linked picture.') + IMAGE_DRAWING('r:link="rIdImg"'),
    documentRels: `<Relationship Id='rIdImg' Type='${REL}/image' Target='${url}' TargetMode='External'/>`,
  });
}

/** An INCLUDEPICTURE field whose instruction is split over several runs. */
export function buildSplitIncludePictureDocx(url: string): Uint8Array {
  const run = (text: string) =>
    `<w:r><w:instrText xml:space="preserve">${text}</w:instrText></w:r>`;
  return buildWordPackage({
    body:
      wParagraph('Statement with a field.') +
      `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r>${run(' INCLUDEPIC')}${run('TURE "')}${run(`${url}" \\d `)}<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>picture</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`,
  });
}

/** The same field in the w:fldSimple form, with the WordprocessingML namespace under another prefix. */
export function buildPrefixedFieldDocx(url: string): Uint8Array {
  const body = `<x:p xmlns:x="${W}"><x:fldSimple x:instr=' INCLUDETEXT "${url}" '><x:r><x:t>included</x:t></x:r></x:fldSimple></x:p>`;
  return buildWordPackage({ body: wParagraph('Statement.') + body });
}

/** `depth` tables each nested in the previous one's only cell: a small file LibreOffice chokes on. */
export function buildNestedTablesDocx(depth = 2000): Uint8Array {
  const open = '<w:tbl><w:tr><w:tc>';
  const close = '<w:p/></w:tc></w:tr></w:tbl>';
  return buildWordPackage({
    body: open.repeat(depth) + '<w:p/>' + close.repeat(depth) + wParagraph('end'),
    level: 9,
  });
}

/** A DOCTYPE with an internal entity (the billion-laughs family). */
export function buildDoctypeDocx(): Uint8Array {
  const files = {
    '[Content_Types].xml': strToU8(
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="${CT_WORD}.document.main+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>&b;</w:t></w:r></w:p></w:body></w:document>`,
    ),
  };
  return zipSync(files);
}

/** A docx cut short: the first part of a valid package, no central directory. */
export function truncate(bytes: Uint8Array, keep = 0.6): Uint8Array {
  return bytes.slice(0, Math.floor(bytes.length * keep));
}

// ---- CFB (OLE compound file) --------------------------------------------------------------

/**
 * A minimal version-3 compound file (512-byte sectors) holding the given streams in the root
 * storage, each stored in regular sectors (padded to 4096 bytes so no mini stream is needed).
 * That is how Word stores a password-protected .docx: EncryptionInfo + EncryptedPackage.
 */
export function buildCompoundFile(streams: Record<string, Uint8Array>): Uint8Array {
  const SECTOR = 512;
  const ENDOFCHAIN = 0xfffffffe;
  const FREESECT = 0xffffffff;
  const FATSECT = 0xfffffffd;
  const names = Object.keys(streams);
  const padded = names.map((n) => {
    const data = streams[n]!;
    const size = Math.max(4096, Math.ceil(data.length / SECTOR) * SECTOR);
    const out = new Uint8Array(size);
    out.set(data);
    return { name: n, data: out, size: data.length < 4096 ? 4096 : data.length };
  });
  const dirEntries = 1 + names.length;
  const dirSectors = Math.ceil((dirEntries * 128) / SECTOR);
  const dataSectors = padded.reduce((s, p) => s + p.data.length / SECTOR, 0);
  const fatSectors = 1; // 128 entries: enough for these small files
  const total = fatSectors + dirSectors + dataSectors;
  if (total > 128) throw new Error('buildCompoundFile: too large for one FAT sector');
  const file = new Uint8Array(SECTOR * (1 + total));
  const dv = new DataView(file.buffer);
  // Header
  file.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  dv.setUint16(0x18, 0x003e, true);
  dv.setUint16(0x1a, 0x0003, true);
  dv.setUint16(0x1c, 0xfffe, true);
  dv.setUint16(0x1e, 9, true);
  dv.setUint16(0x20, 6, true);
  dv.setUint32(0x2c, fatSectors, true);
  dv.setUint32(0x30, fatSectors, true); // directory starts after the FAT
  dv.setUint32(0x38, 4096, true);
  dv.setUint32(0x3c, ENDOFCHAIN, true);
  dv.setUint32(0x44, ENDOFCHAIN, true);
  for (let i = 0; i < 109; i++) dv.setUint32(0x4c + i * 4, i === 0 ? 0 : FREESECT, true);
  const sectorAt = (n: number) => SECTOR * (1 + n);
  // FAT
  const fat = new Uint32Array(128).fill(FREESECT);
  fat[0] = FATSECT;
  const chain = (start: number, count: number) => {
    for (let i = 0; i < count; i++) fat[start + i] = i === count - 1 ? ENDOFCHAIN : start + i + 1;
  };
  chain(1, dirSectors);
  let next = 1 + dirSectors;
  const starts: number[] = [];
  for (const p of padded) {
    const count = p.data.length / SECTOR;
    starts.push(next);
    chain(next, count);
    file.set(p.data, sectorAt(next));
    next += count;
  }
  for (let i = 0; i < 128; i++) dv.setUint32(sectorAt(0) + i * 4, fat[i]!, true);
  // Directory: root, then the streams as a right-leaning chain of siblings.
  const writeEntry = (
    index: number,
    name: string,
    type: number,
    child: number,
    right: number,
    start: number,
    size: number,
  ) => {
    const at = sectorAt(1) + index * 128;
    for (let i = 0; i < name.length; i++) dv.setUint16(at + i * 2, name.charCodeAt(i), true);
    dv.setUint16(at + 0x40, (name.length + 1) * 2, true);
    file[at + 0x42] = type;
    file[at + 0x43] = 1; // black
    dv.setUint32(at + 0x44, FREESECT, true);
    dv.setUint32(at + 0x48, right, true);
    dv.setUint32(at + 0x4c, child, true);
    dv.setUint32(at + 0x74, start, true);
    dv.setUint32(at + 0x78, size, true);
  };
  writeEntry(0, 'Root Entry', 5, names.length ? 1 : FREESECT, FREESECT, ENDOFCHAIN, 0);
  padded.forEach((p, i) =>
    writeEntry(
      i + 1,
      p.name,
      2,
      FREESECT,
      i + 2 <= names.length ? i + 2 : FREESECT,
      starts[i]!,
      p.size,
    ),
  );
  for (let i = dirEntries; i < dirSectors * 4; i++) {
    const at = sectorAt(1) + i * 128;
    dv.setUint32(at + 0x44, FREESECT, true);
    dv.setUint32(at + 0x48, FREESECT, true);
    dv.setUint32(at + 0x4c, FREESECT, true);
  }
  return file;
}

/** A password-protected Word file as Word saves it (agile encryption header, opaque package). */
export function buildEncryptedDocx(): Uint8Array {
  const info = new Uint8Array(4096);
  info.set([4, 0, 4, 0, 0x40, 0, 0, 0]); // version 4.4, agile
  info.set(strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><encryption/>'), 8);
  const pkg = new Uint8Array(8192);
  for (let i = 0; i < pkg.length; i++) pkg[i] = (i * 131 + 17) & 0xff;
  return buildCompoundFile({ EncryptionInfo: info, EncryptedPackage: pkg });
}

// ---- Objects, controls and pictures Word writes into ordinary documents (issue #27) ------------

const VML = 'urn:schemas-microsoft-com:vml';
const VML_OFFICE = 'urn:schemas-microsoft-com:office:office';
const OFFICE_REL = 'http://schemas.microsoft.com/office/2006/relationships';

/** The two colours every preview picture below is drawn in: left half, right half. */
export const PREVIEW_LEFT: [number, number, number] = [204, 32, 32];
export const PREVIEW_RIGHT: [number, number, number] = [32, 64, 204];

function littleEndian(words: Word[]): Uint8Array {
  const out = Buffer.alloc(words.reduce((s, w) => s + w.size, 0));
  let at = 0;
  for (const w of words) {
    if (w.size === 2) out.writeUInt16LE(w.value & 0xffff, at);
    else out.writeUInt32LE(w.value >>> 0, at);
    at += w.size;
  }
  return out;
}
type Word = { size: 2 | 4; value: number };
const u16 = (...values: number[]): Word[] => values.map((value) => ({ size: 2, value }));
const u32 = (...values: number[]): Word[] => values.map((value) => ({ size: 4, value }));
const colorRef = ([r, g, b]: [number, number, number]) => r | (g << 8) | (b << 16);

/**
 * A placeable Windows Metafile (what Word stores as an equation's or an OLE object's preview):
 * `width`×`height` logical units at 1440 a inch, its left half PREVIEW_LEFT, its right half
 * PREVIEW_RIGHT, both drawn without an outline.
 */
export function buildWmf(width = 2880, height = 1440): Uint8Array {
  const records: Word[][] = [];
  const record = (fn: number, params: number[]) =>
    records.push([...u32(3 + params.length), ...u16(fn, ...params)]);
  record(0x020b, [0, 0]); // SETWINDOWORG y, x
  record(0x020c, [height, width]); // SETWINDOWEXT y, x
  record(0x02fa, [5, 0, 0, 0, 0]); // CREATEPENINDIRECT PS_NULL → object 0
  record(0x012d, [0]);
  for (const [index, color, left, right] of [
    [1, PREVIEW_LEFT, 0, width / 2],
    [2, PREVIEW_RIGHT, width / 2, width],
  ] as const) {
    const ref = colorRef(color);
    record(0x02fc, [0, ref & 0xffff, ref >>> 16, 0]); // CREATEBRUSHINDIRECT solid → object n
    record(0x012d, [index]);
    record(0x041b, [height + 1, right + 1, 0, left]); // RECTANGLE bottom, right, top, left
  }
  record(0x0000, []); // EOF
  const body = records.flat();
  const bodyWords = body.reduce((s, w) => s + w.size, 0) / 2;
  const maxRecord = Math.max(...records.map((r) => r.reduce((s, w) => s + w.size, 0) / 2));
  const header = u16(1, 9, 0x0300).concat(u32(9 + bodyWords), u16(3), u32(maxRecord), u16(0));
  const placeable = [0xcdd7, 0x9ac6, 0, 0, 0, width, height, 1440, 0, 0];
  let checksum = 0;
  for (const word of placeable) checksum ^= word;
  return Buffer.concat([
    littleEndian([...u16(...placeable), ...u16(checksum)]),
    littleEndian(header),
    littleEndian(body),
  ]);
}

/** An Enhanced Metafile of `width`×`height` device pixels (96 a inch), halves as buildWmf. */
export function buildEmf(width = 192, height = 96): Uint8Array {
  const records: Uint8Array[] = [];
  const record = (type: number, params: number[]) =>
    records.push(littleEndian(u32(type, 8 + params.length * 4, ...params)));
  const NULL_PEN = 0x80000008;
  record(37, [NULL_PEN]); // SELECTOBJECT stock pen
  for (const [handle, color, left, right] of [
    [1, PREVIEW_LEFT, 0, width / 2],
    [2, PREVIEW_RIGHT, width / 2, width],
  ] as const) {
    record(39, [handle, 0, colorRef(color), 0]); // CREATEBRUSHINDIRECT
    record(37, [handle]); // SELECTOBJECT
    record(43, [left, 0, right, height]); // RECTANGLE
  }
  record(14, [0, 16, 20]); // EOF
  const bodyBytes = records.reduce((s, r) => s + r.length, 0);
  // 96 px an inch: the device is 1920×1080 px on 508×285.75 mm.
  const hundredthsMm = (px: number) => Math.round((px * 2540) / 96);
  const header = littleEndian([
    ...u32(1, 88, 0, 0, width - 1, height - 1),
    ...u32(0, 0, hundredthsMm(width) - 1, hundredthsMm(height) - 1),
    ...u32(0x464d4520, 0x10000, 88 + bodyBytes, records.length + 1),
    ...u16(3, 0),
    ...u32(0, 0, 0, 1920, 1080, 508, 286),
  ]);
  return Buffer.concat([header, ...records]);
}

/** A PNG of `width`×`height` pixels in the preview colours. */
export function buildPreviewPng(width = 192, height = 96): Uint8Array {
  return buildPng(width, height, (x) => (x < width / 2 ? PREVIEW_LEFT : PREVIEW_RIGHT));
}

/** Marks the bytes of every object, control and macro binary: none may reach a PDF. */
export const BINARY_MARKER = 'EMBEDDED-BINARY-4d1f0c-MUST-NOT-SURVIVE';
const markedBinary = (kind: string) =>
  buildCompoundFile({ Contents: strToU8(`${BINARY_MARKER} ${kind} `.repeat(40)) });

const VML_NAMESPACES = `xmlns:v="${VML}" xmlns:o="${VML_OFFICE}"`;
const SHAPETYPE_75 = `<v:shapetype id="_x0000_t75" coordsize="21600,21600" o:spt="75" o:preferrelative="t" filled="f" stroked="f"><v:stroke joinstyle="miter"/><v:path o:extrusionok="f" gradientshapeok="t" o:connecttype="rect"/><o:lock v:ext="edit" aspectratio="t"/></v:shapetype>`;

/** The picture of an object or control as VML, 144×72 pt, its picture named by `imageId`. */
const vmlPicture = (shapeId: string, imageId: string) =>
  `<v:shape id="${shapeId}" type="#_x0000_t75" style="width:144pt;height:72pt" o:ole=""><v:imagedata r:id="${imageId}" o:title=""/></v:shape>`;

interface Preview {
  name: string;
  bytes: Uint8Array;
  extension: string;
  contentType: string;
}
const PREVIEWS = {
  wmf: () => ({
    name: 'image1.wmf',
    bytes: buildWmf(),
    extension: 'wmf',
    contentType: 'image/x-wmf',
  }),
  emf: () => ({
    name: 'image1.emf',
    bytes: buildEmf(),
    extension: 'emf',
    contentType: 'image/x-emf',
  }),
  png: () => ({
    name: 'image1.png',
    bytes: buildPreviewPng(),
    extension: 'png',
    contentType: 'image/png',
  }),
} satisfies Record<string, () => Preview>;

export type OleKind = 'equation' | 'visio' | 'powerpoint' | 'workbook' | 'package';
const OLE_KINDS: Record<
  OleKind,
  {
    progId: string;
    preview: keyof typeof PREVIEWS;
    part: string;
    contentType: string;
    relType: string;
  }
> = {
  // The old Equation Editor (Equation 3.0): an OLE compound file under a .bin name.
  equation: {
    progId: 'Equation.3',
    preview: 'wmf',
    part: 'oleObject1.bin',
    contentType: 'application/vnd.openxmlformats-officedocument.oleObject',
    relType: `${REL}/oleObject`,
  },
  visio: {
    progId: 'Visio.Drawing.15',
    preview: 'emf',
    part: 'Microsoft_Visio_Drawing.vsdx',
    contentType: 'application/vnd.ms-visio.drawing',
    relType: `${REL}/package`,
  },
  powerpoint: {
    progId: 'PowerPoint.Slide.12',
    preview: 'png',
    part: 'Microsoft_PowerPoint_Slide.sldx',
    contentType: 'application/vnd.openxmlformats-officedocument.presentationml.slide',
    relType: `${REL}/package`,
  },
  workbook: {
    progId: 'Excel.Sheet.12',
    preview: 'emf',
    part: 'Microsoft_Excel_Worksheet.xlsx',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    relType: `${REL}/package`,
  },
  package: {
    progId: 'Package',
    preview: 'emf',
    part: 'oleObject1.bin',
    contentType: 'application/vnd.openxmlformats-officedocument.oleObject',
    relType: `${REL}/oleObject`,
  },
};

/** What makes a w:object an object or a control: its payload element and the parts it names. */
interface ObjectPayload {
  /** The element beside the picture in w:object (o:OLEObject, w:control). */
  element: string;
  documentRels: string;
  contentTypes: string;
  parts?: Part[];
  binaries: Record<string, Uint8Array>;
}

/**
 * A w:object holding the VML picture Word draws for it (its preview, in word/media) and the
 * payload; `asPicture` writes the same picture without the object (w:pict): what the document
 * looks like.
 */
function buildObjectDocx(
  caption: string,
  shapeId: string,
  preview: Preview,
  payload: ObjectPayload | undefined,
): Uint8Array {
  const picture = `${SHAPETYPE_75}${vmlPicture(shapeId, 'rIdPreview')}`;
  const object = payload
    ? `<w:object w:dxaOrig="2880" w:dyaOrig="1440">${picture}${payload.element}</w:object>`
    : `<w:pict>${picture}</w:pict>`;
  return buildWordPackage({
    namespaces: VML_NAMESPACES,
    body:
      wParagraph(caption) +
      `<w:p><w:r>${object}</w:r></w:p>` +
      wParagraph('Text after the object.'),
    documentRels:
      `<Relationship Id="rIdPreview" Type="${REL}/image" Target="media/${preview.name}"/>` +
      (payload?.documentRels ?? ''),
    contentTypes:
      `<Default Extension="${preview.extension}" ContentType="${preview.contentType}"/>` +
      (payload?.contentTypes ?? ''),
    parts: payload?.parts ?? [],
    binaries: { [`word/media/${preview.name}`]: preview.bytes, ...payload?.binaries },
  });
}

/**
 * An embedded OLE object as Word writes it: a w:object holding the VML picture Word draws (the
 * preview, beside it in word/media) and the o:OLEObject naming the embedded binary. `asPicture`
 * writes the same picture without the object (w:pict): what the document looks like.
 */
export function buildOleObjectDocx(
  kind: OleKind,
  options: { asPicture?: boolean } = {},
): Uint8Array {
  const spec = OLE_KINDS[kind];
  const embedding = `word/embeddings/${spec.part}`;
  return buildObjectDocx(
    `Statement with an object (${spec.progId}).`,
    '_x0000_i1025',
    PREVIEWS[spec.preview](),
    options.asPicture
      ? undefined
      : {
          element: `<o:OLEObject Type="Embed" ProgID="${spec.progId}" ShapeID="_x0000_i1025" DrawAspect="Content" ObjectID="_1764000001" r:id="rIdObject"/>`,
          documentRels: `<Relationship Id="rIdObject" Type="${spec.relType}" Target="embeddings/${spec.part}"/>`,
          contentTypes: `<Override PartName="/${embedding}" ContentType="${spec.contentType}"/>`,
          binaries: { [embedding]: markedBinary(spec.progId) },
        },
  );
}

/** A legacy (Word 97) form check box, ticked, as a FORMCHECKBOX field with its form data. */
export function buildLegacyCheckBoxDocx(): Uint8Array {
  const checkBox = `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Check1"/><w:enabled/><w:calcOnExit w:val="0"/><w:checkBox><w:sizeAuto/><w:default w:val="1"/></w:checkBox></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMCHECKBOX </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
  const text = `<w:r><w:fldChar w:fldCharType="begin"><w:ffData><w:name w:val="Text1"/><w:enabled/><w:calcOnExit w:val="0"/><w:textInput/></w:ffData></w:fldChar></w:r><w:r><w:instrText xml:space="preserve"> FORMTEXT </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>Typed form answer</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>`;
  return buildWordPackage({
    body:
      wParagraph('Statement with a form.') +
      `<w:p>${checkBox}<w:r><w:t xml:space="preserve"> I confirm the above.</w:t></w:r></w:p>` +
      `<w:p>${text}</w:p>`,
  });
}

/**
 * An ActiveX check box as Word writes it: a w:object with the control's picture (an EMF) and a
 * w:control naming word/activeX/activeX1.xml, whose own relationship names the binary.
 */
export function buildActiveXCheckBoxDocx(options: { asPicture?: boolean } = {}): Uint8Array {
  return buildObjectDocx(
    'Statement with an ActiveX check box.',
    '_x0000_i1026',
    PREVIEWS.emf(),
    options.asPicture
      ? undefined
      : {
          element: '<w:control r:id="rIdControl" w:name="CheckBox1" w:shapeid="_x0000_i1026"/>',
          documentRels: `<Relationship Id="rIdControl" Type="${REL}/control" Target="activeX/activeX1.xml"/>`,
          contentTypes:
            '<Override PartName="/word/activeX/activeX1.bin" ContentType="application/vnd.ms-office.activeX"/>',
          parts: [
            {
              name: 'word/activeX/activeX1.xml',
              contentType: 'application/vnd.ms-office.activeX+xml',
              xml: `${XML_DECL}<ax:ocx xmlns:ax="http://schemas.microsoft.com/office/2006/activeX" xmlns:r="${REL}" ax:classid="{8BD21D40-EC42-11CE-9E0D-00AA006002F3}" ax:persistence="persistStorage" r:id="rId1"/>`,
            },
            {
              name: 'word/activeX/_rels/activeX1.xml.rels',
              xml: `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${OFFICE_REL}/activeXControlBinary" Target="activeX1.bin"/></Relationships>`,
            },
          ],
          binaries: { 'word/activeX/activeX1.bin': markedBinary('CheckBox') },
        },
  );
}

const pictureDrawing = (id: number, relId: string, attr = 'r:embed') =>
  `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="1828800" cy="914400"/><wp:docPr id="${id}" name="Picture ${id}"/><a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${id}" name="Picture ${id}"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip ${attr}="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;

/**
 * A PNG and an EMF picture in parts named word/media/imageN.bin, their content types declared
 * per part (as Word does for some pictures); `extension` names them .png/.emf instead.
 */
export function buildBinNamedPicturesDocx(
  options: { named?: 'bin' | 'extension' } = {},
): Uint8Array {
  const bin = (options.named ?? 'bin') === 'bin';
  const png = bin ? 'image1.bin' : 'image1.png';
  const emf = bin ? 'image2.bin' : 'image2.emf';
  return buildWordPackage({
    body:
      wParagraph('Statement with two pictures.') +
      pictureDrawing(1, 'rIdPng') +
      pictureDrawing(2, 'rIdEmf') +
      wParagraph('Text after the pictures.'),
    documentRels:
      `<Relationship Id="rIdPng" Type="${REL}/image" Target="media/${png}"/>` +
      `<Relationship Id="rIdEmf" Type="${REL}/image" Target="media/${emf}"/>`,
    contentTypes:
      `<Override PartName="/word/media/${png}" ContentType="image/png"/>` +
      `<Override PartName="/word/media/${emf}" ContentType="image/x-emf"/>`,
    binaries: { [`word/media/${png}`]: buildPreviewPng(), [`word/media/${emf}`]: buildEmf() },
  });
}

/** A picture linked (not embedded) from `url`, as Word's "Link to File" writes it. */
export function buildLinkedImageDocx(url: string): Uint8Array {
  return buildWordPackage({
    body:
      wParagraph('Statement with a linked picture.') +
      pictureDrawing(1, 'rIdLinked', 'r:link') +
      wParagraph('Text after the linked picture.'),
    documentRels: `<Relationship Id="rIdLinked" Type="${REL}/image" Target="${url}" TargetMode="External"/>`,
  });
}

/**
 * A custom XML part (a style map a tool stored in the package, in a Central European encoding)
 * with its properties part: nothing in the document shows it.
 */
export function buildCustomXmlDocx(): Uint8Array {
  const styleMap = Buffer.concat([
    Buffer.from(
      '<?xml version="1.0" encoding="windows-1250"?>\n<sm:styleMap xmlns:sm="urn:example:style-map"><sm:map from="Nadpis 1" to="Heading 1" note="',
      'latin1',
    ),
    Buffer.from([0xe9]), // é in windows-1250
    Buffer.from('"/></sm:styleMap>', 'latin1'),
  ]);
  return buildWordPackage({
    body: wParagraph('Statement with a style map.'),
    documentRels: `<Relationship Id="rIdCustom" Type="${REL}/customXml" Target="../customXml/item1.xml"/>`,
    parts: [
      {
        name: 'customXml/_rels/item1.xml.rels',
        xml: `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${REL}/customXmlProps" Target="itemProps1.xml"/></Relationships>`,
      },
      {
        name: 'customXml/itemProps1.xml',
        contentType: 'application/vnd.openxmlformats-officedocument.customXmlProperties+xml',
        xml: `${XML_DECL}<ds:datastoreItem ds:itemID="{6B1E2F3A-0C4D-4E5F-8A9B-0C1D2E3F4A5B}" xmlns:ds="http://schemas.openxmlformats.org/officeDocument/2006/customXml"><ds:schemaRefs/></ds:datastoreItem>`,
      },
    ],
    binaries: { 'customXml/item1.xml': styleMap },
  });
}

/**
 * A .docx (its main part the ordinary document type) that still carries a VBA project, as a
 * document saved from a .docm by a tool that kept the parts.
 */
export function buildDocxWithVbaProject(): Uint8Array {
  return buildWordPackage({
    body: wParagraph('Statement that once had macros.'),
    documentRels: `<Relationship Id="rIdVba" Type="${OFFICE_REL}/vbaProject" Target="vbaProject.bin"/>`,
    contentTypes: '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>',
    parts: [
      {
        name: 'word/_rels/vbaProject.bin.rels',
        xml: `${XML_DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${OFFICE_REL}/wordVbaData" Target="vbaData.xml"/></Relationships>`,
      },
      {
        name: 'word/vbaData.xml',
        contentType: 'application/vnd.ms-word.vbaData+xml',
        xml: `${XML_DECL}<wne:vbaSuppData xmlns:wne="http://schemas.microsoft.com/office/word/2006/wordml"><wne:mcds><wne:mcd wne:macroName="PROJECT.NEWMACROS.AUTOOPEN" wne:name="Project.NewMacros.AutoOpen" wne:bEncrypt="00" wne:cmg="56"/></wne:mcds></wne:vbaSuppData>`,
      },
    ],
    binaries: { 'word/vbaProject.bin': markedBinary('vbaProject') },
  });
}

/**
 * A statement of about `bytes` (under the 1 MiB upload limit): 400 paragraphs of text, an old
 * equation object, a chart with its workbook, and photo-like PNGs (noise: incompressible, as
 * photos are) filling the rest. What the rewrite is timed on.
 */
export function buildLargeStatementDocx(bytes = 1_000_000): Uint8Array {
  const noise = (seed: number) => (x: number, y: number) => {
    const h = Math.imul((x * 73856093) ^ (y * 19349663) ^ seed, 2654435761) >>> 0;
    return [h & 255, (h >>> 8) & 255, (h >>> 16) & 255] as [number, number, number];
  };
  const text = Array.from({ length: 400 }, (_, i) =>
    wParagraph(`Paragraph ${i + 1}: I would like to study engines, and here is why, at length.`),
  ).join('');
  const equation = unzipSync(buildOleObjectDocx('equation'));
  const chart = unzipSync(buildChartDocx());
  const pictures: Record<string, Uint8Array> = {};
  let size = 60_000;
  for (let i = 1; size < bytes - 20_000; i++) {
    const side = Math.min(300, Math.floor(Math.sqrt((bytes - 20_000 - size) / 3)));
    if (side < 16) break;
    pictures[`word/media/photo${i}.png`] = buildPng(side, side, noise(i));
    size += pictures[`word/media/photo${i}.png`]!.length;
  }
  const names = Object.keys(pictures);
  const body =
    text +
    names.map((_, i) => pictureDrawing(100 + i, `rIdPhoto${i}`)).join('') +
    `<w:p><w:r><w:object w:dxaOrig="2880" w:dyaOrig="1440">${SHAPETYPE_75}${vmlPicture('_x0000_i1025', 'rIdPreview')}<o:OLEObject Type="Embed" ProgID="Equation.3" ShapeID="_x0000_i1025" DrawAspect="Content" ObjectID="_1764000001" r:id="rIdObject"/></w:object></w:r></w:p>` +
    /<w:body>(.*)<w:sectPr\/><\/w:body>/s
      .exec(strFromU8(chart['word/document.xml']!))![1]!
      .replace(/^.*?(<w:p><w:r><w:drawing>)/s, '$1');
  return buildWordPackage({
    namespaces: `${VML_NAMESPACES} xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"`,
    body,
    documentRels:
      names
        .map(
          (name, i) =>
            `<Relationship Id="rIdPhoto${i}" Type="${REL}/image" Target="${name.slice('word/'.length)}"/>`,
        )
        .join('') +
      `<Relationship Id="rIdPreview" Type="${REL}/image" Target="media/image1.wmf"/>` +
      `<Relationship Id="rIdObject" Type="${REL}/oleObject" Target="embeddings/oleObject1.bin"/>` +
      `<Relationship Id="rId12" Type="${REL}/chart" Target="charts/chart1.xml"/>`,
    contentTypes:
      '<Default Extension="png" ContentType="image/png"/><Default Extension="wmf" ContentType="image/x-wmf"/><Default Extension="bin" ContentType="application/vnd.openxmlformats-officedocument.oleObject"/><Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/><Override PartName="/word/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>',
    binaries: {
      ...pictures,
      'word/media/image1.wmf': equation['word/media/image1.wmf']!,
      'word/embeddings/oleObject1.bin': equation['word/embeddings/oleObject1.bin']!,
      'word/charts/chart1.xml': chart['word/charts/chart1.xml']!,
      'word/charts/_rels/chart1.xml.rels': chart['word/charts/_rels/chart1.xml.rels']!,
      'word/embeddings/Microsoft_Excel_Worksheet.xlsx':
        chart['word/embeddings/Microsoft_Excel_Worksheet.xlsx']!,
    },
  });
}
