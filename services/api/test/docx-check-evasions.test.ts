// Red-team cases for the docx check: routes to external content or to LibreOffice's time-out that
// the first version of the check did not see. Each is built in code and must be refused with its
// reason, or (since #27, for links) left out of the package LibreOffice gets.
import { strFromU8, strToU8, unzipSync, zipSync, zlibSync } from 'fflate';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_MESSAGES } from '@admissions/api-contract';
import { checkDocx } from '../src/modules/documents/conversion/check-docx';
import { DocumentRejectedError } from '../src/modules/documents/conversion/conversion-errors';
import { buildWordPackage, wParagraph } from './support/docx-builder';

const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const STRICT_REL = 'http://purl.oclc.org/ooxml/officeDocument/relationships';
const STRICT_W = 'http://purl.oclc.org/ooxml/wordprocessingml/main';
const MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
// Nothing listens there; the check must refuse on sight, not on reachability.
const URL = 'http://127.0.0.1:9/photo.png';

function refusal(bytes: Uint8Array): DocumentRejectedError {
  try {
    checkDocx(bytes);
  } catch (error) {
    if (error instanceof DocumentRejectedError) return error;
    throw error;
  }
  throw new Error('expected the document to be refused');
}

/** Every part of the package LibreOffice gets, as text (none may name the link any more). */
function handedOn(bytes: Uint8Array): string {
  return Object.values(unzipSync(checkDocx(bytes)))
    .map((data) => strFromU8(data, true))
    .join('\n');
}

const field = (instruction: string) =>
  `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">${instruction}</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>result</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;

const nestedTables = (levels: number) =>
  '<w:tbl><w:tr><w:tc>'.repeat(levels) + '<w:p/>' + '</w:tc></w:tr></w:tbl>'.repeat(levels);

/** A package whose main document is `mainPart` (named by _rels/.rels), written as given. */
function buildRawPackage(opts: {
  mainPart?: string;
  relType?: string;
  files: Record<string, string>;
}): Uint8Array {
  const mainPart = opts.mainPart ?? 'word/document.xml';
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(
      `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="${MAIN}"/><Override PartName="/${mainPart}" ContentType="${MAIN}"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `${DECL}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${opts.relType ?? REL}/officeDocument" Target="${mainPart}"/></Relationships>`,
    ),
  };
  for (const [name, text] of Object.entries(opts.files)) files[name] = strToU8(text);
  return zipSync(files);
}

const documentXml = (body: string, ns = W, rel = REL) =>
  `${DECL}<w:document xmlns:w="${ns}" xmlns:r="${rel}"><w:body>${body}</w:body></w:document>`;

describe('the docx check is not evaded', () => {
  it('by Strict OOXML, whose WordprocessingML namespace LibreOffice also reads', () => {
    const strict = (body: string) =>
      buildRawPackage({
        relType: STRICT_REL,
        files: { 'word/document.xml': documentXml(body, STRICT_W, STRICT_REL) },
      });
    const linked = handedOn(strict(field(`INCLUDEPICTURE "${URL}"`)));
    expect(linked).not.toContain(URL);
    expect(linked).not.toContain('INCLUDEPICTURE');
    expect(linked).toContain('result');
    expect(refusal(strict(nestedTables(2000))).userMessage).toBe(DOCUMENT_MESSAGES.tooComplex);
    expect(refusal(strict('<w:altChunk r:id="rId9"/>')).userMessage).toBe(
      DOCUMENT_MESSAGES.unsafeContent,
    );
  });

  it('by a main document or header in a part not named .xml', () => {
    // A harmless word/document.xml beside it; _rels/.rels names the real main document.
    const mainInDat = buildRawPackage({
      mainPart: 'word/main.dat',
      files: {
        'word/document.xml': documentXml(wParagraph('Decoy statement.')),
        'word/main.dat': documentXml(nestedTables(2000)),
      },
    });
    expect(refusal(mainInDat).userMessage).toBe(DOCUMENT_MESSAGES.tooComplex);
    const headerInTxt = buildWordPackage({
      body: wParagraph('Statement.'),
      documentRels: `<Relationship Id="rId9" Type="${REL}/header" Target="header1.txt"/>`,
      parts: [
        {
          name: 'word/header1.txt',
          xml: `${DECL}<w:hdr xmlns:w="${W}">${field('INCLUDETEXT "/etc/passwd"')}</w:hdr>`,
        },
      ],
    });
    expect(handedOn(headerInTxt)).not.toContain('/etc/passwd');
  });

  it('by a field instruction in a CDATA section or with its keyword quoted', () => {
    for (const instruction of [
      `<![CDATA[INCLUDEPICTURE "${URL}"]]>`,
      `<![CDATA[INCLUDE]]>PICTURE "${URL}"`,
      `"INCLUDEPICTURE" "${URL}"`,
      `&quot;INCLUDETEXT&quot; "/etc/passwd"`,
    ]) {
      const text = handedOn(buildWordPackage({ body: field(instruction) }));
      expect(text).not.toContain(URL);
      expect(text).not.toContain('/etc/passwd');
      // The field's last result stays: what Word showed.
      expect(text).toContain('result');
    }
  });

  it('by an external hyperlink relationship used as an image, a VML picture or a mail-merge source', () => {
    const hyperlink = `<Relationship Id="rIdH" Type="${REL}/hyperlink" Target="${URL}" TargetMode="External"/>`;
    const bodies = [
      `<w:p><w:r><w:drawing><a:blip xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" r:link="rIdH"/></w:drawing></w:r></w:p>`,
      `<w:p><w:r><w:drawing><a:blip xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" r:embed="rIdH"/></w:drawing></w:r></w:p>`,
      `<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:imagedata r:id="rIdH"/></v:shape></w:pict></w:r></w:p>`,
      `<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"><v:imagedata o:relid="rIdH"/></v:shape></w:pict></w:r></w:p>`,
    ];
    for (const body of bodies) {
      expect(handedOn(buildWordPackage({ body, documentRels: hyperlink }))).not.toContain(URL);
    }
    const mailMerge = buildWordPackage({
      body: wParagraph('Statement.'),
      documentRels: `<Relationship Id="rIdS" Type="${REL}/settings" Target="settings.xml"/>`,
      parts: [
        {
          name: 'word/settings.xml',
          xml: `${DECL}<w:settings xmlns:w="${W}" xmlns:r="${REL}"><w:mailMerge><w:dataSource r:id="rIdH"/></w:mailMerge></w:settings>`,
        },
        {
          name: 'word/_rels/settings.xml.rels',
          xml: `${DECL}<Relationships xmlns="${PKG_RELS}">${hyperlink}</Relationships>`,
        },
      ],
    });
    const merged = handedOn(mailMerge);
    expect(merged).toContain('w:mailMerge');
    expect(merged).not.toContain(URL);
  });

  it('keeps a hyperlink used as a hyperlink', () => {
    const bytes = buildWordPackage({
      body: `<w:p><w:hyperlink r:id="rIdH"><w:r><w:t>My portfolio</w:t></w:r></w:hyperlink></w:p>`,
      documentRels: `<Relationship Id="rIdH" Type="${REL}/hyperlink" Target="https://example.org/" TargetMode="External"/>`,
    });
    expect(handedOn(bytes)).toContain('https://example.org/');
  });

  it('by a part in an encoding that spells markup differently (UTF-7)', () => {
    const bytes = buildWordPackage({
      body: wParagraph('Statement.'),
      documentRels: `<Relationship Id="rId9" Type="${REL}/header" Target="header1.xml"/>`,
      parts: [
        {
          name: 'word/header1.xml',
          xml: `<?xml version="1.0" encoding="UTF-7"?><w:hdr xmlns:w="${W}">+ADw-w:p+AD4-+ADw-w:r+AD4-+ADw-w:instrText+AD4-INCLUDETEXT /etc/passwd+ADw-/w:instrText+AD4-+ADw-/w:r+AD4-+ADw-/w:p+AD4-</w:hdr>`,
        },
      ],
    });
    expect(refusal(bytes).userMessage).toBe(DOCUMENT_MESSAGES.unreadable);
    // A Latin-1 declaration (some tools write one) spells markup as UTF-8 does: still read.
    const latin = buildWordPackage({
      body: wParagraph('Statement.'),
      parts: [
        {
          name: 'word/header1.xml',
          xml: `<?xml version="1.0" encoding="ISO-8859-1"?><w:hdr xmlns:w="${W}">${wParagraph('Header')}</w:hdr>`,
        },
      ],
    });
    expect(checkDocx(latin).length).toBeGreaterThan(0);
  });

  it('by a picture that LibreOffice would decode at 20000×20000 pixels (a 1.6 KB docx held it 20 s)', () => {
    for (const side of [20_000, 100_000]) {
      expect(refusal(buildPictureDocx(side, side)).userMessage).toBe(
        DOCUMENT_MESSAGES.imageTooLarge,
      );
    }
    expect(checkDocx(buildPictureDocx(1000, 800)).length).toBeGreaterThan(0);
  });

  it('by 30,000 runs in one paragraph (a 4.7 KB file held LibreOffice past the time-out)', () => {
    const paragraphs = (count: number, runs: number) =>
      Array.from(
        { length: count },
        () =>
          `<w:p>${'<w:r><w:t>ab</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>cd</w:t></w:r>'.repeat(runs / 2)}</w:p>`,
      ).join('');
    expect(refusal(buildWordPackage({ body: paragraphs(1, 30_000) })).userMessage).toBe(
      DOCUMENT_MESSAGES.tooComplex,
    );
    // The same runs spread over ordinary paragraphs convert in about 2 s.
    expect(checkDocx(buildWordPackage({ body: paragraphs(300, 100) })).length).toBeGreaterThan(0);
  });

  it('by an SVG picture that links a URL or declares entities, while an SVG icon is kept', () => {
    const svgDocx = (svg: string) =>
      buildWordPackage({
        body: `<w:p><w:r><w:drawing><a:blip xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" r:embed="rIdS"/></w:drawing></w:r></w:p>`,
        documentRels: `<Relationship Id="rIdS" Type="${REL}/image" Target="media/image1.svg"/>`,
        contentTypes: '<Default Extension="svg" ContentType="image/svg+xml"/>',
        binaries: { 'word/media/image1.svg': strToU8(svg) },
      });
    const SVG = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"';
    expect(
      refusal(svgDocx(`<svg ${SVG}><image href="${URL}" width="9" height="9"/></svg>`)).userMessage,
    ).toBe(DOCUMENT_MESSAGES.unsafeContent);
    expect(
      refusal(svgDocx(`<svg ${SVG}><image xlink:href="file:///etc/passwd"/></svg>`)).userMessage,
    ).toBe(DOCUMENT_MESSAGES.unsafeContent);
    expect(
      refusal(
        svgDocx(
          `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg ${SVG}><text>&a;</text></svg>`,
        ),
      ).userMessage,
    ).toBe(DOCUMENT_MESSAGES.unsafeContent);
    expect(
      checkDocx(
        svgDocx(
          `<svg ${SVG}><defs><circle id="c" r="4"/></defs><use href="#c"/><image href="data:image/png;base64,AAAA"/></svg>`,
        ),
      ).length,
    ).toBeGreaterThan(0);
  });
});

/** A grey PNG of `width`×`height` whose data holds a few rows (the header is what is judged). */
function buildPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    out.set(data, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth; colour type 0 (grey)
  const rows = new Uint8Array(Math.min(height, 10) * (width + 1));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array()),
  ]);
}

function buildPictureDocx(width: number, height: number): Uint8Array {
  const drawing = `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="914400" cy="914400"/><wp:docPr id="1" name="Picture"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="photo.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rIdP"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="914400" cy="914400"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`;
  return buildWordPackage({
    namespaces:
      'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"',
    body: drawing,
    documentRels: `<Relationship Id="rIdP" Type="${REL}/image" Target="media/photo.png"/>`,
    contentTypes: '<Default Extension="png" ContentType="image/png"/>',
    binaries: { 'word/media/photo.png': buildPng(width, height) },
  });
}
