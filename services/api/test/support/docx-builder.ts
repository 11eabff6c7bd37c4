// Word documents as Word writes them in daily use, built in code: comments (with the Word 2016+
// commentsExtended/commentsIds parts), tracked changes, a native chart with its data workbook,
// footnotes, header and footer, a template-based document; plus hostile variants and an
// encrypted (CFB) Word file. Every part is a minimal but valid OOXML part.
import { strToU8, zipSync } from 'fflate';

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
