// The tagged application PDF (issue #32) read back as an assistive technology would: the PDF/UA
// checker, poppler's view of the structure tree (pdfinfo -struct-text) against the print view's
// rows, the text, the outline and the page numbers.
import { execFileSync } from 'node:child_process';
import PDFDocument from 'pdfkit';
import {
  degrees,
  PDFDict,
  PDFDocument as PDFLib,
  PDFHexString,
  PDFName,
  PDFString,
  StandardFonts,
} from 'pdf-lib';
import { openSync } from 'fontkit';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  collectAnswerPairs,
  type AnswerView,
  type ApplicationCover,
  type PdfChecklistItemInput,
  type PdfDocumentInput,
} from '../src';
import { ANSWER_FIXTURES, buildFixtureView, type AnswerFixture } from '../src/fixtures';
import { renderApplicationPdf } from '../src/pdf';
import {
  renderCountedTaggedApplicationPdf,
  renderTaggedApplicationPdf,
} from '../src/pdf/tagged/assemble-tagged';
import { combineApplicationPdfs } from '../src/pdf/tagged/combine-tagged';
import { stampNotes } from '../src/pdf/tagged/stamp-notes';
import {
  buildDocumentPdf,
  findOutOfOrder,
  pdfOutline,
  pdfPageTexts,
  pdfText,
  readStructureRows,
  squeeze,
  withFile,
  withoutPageNumbers,
} from './pdf-tools';
import { checkPdfUa } from './pdf-ua-check';

const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** The alternative text of the file's Figure element (the first one found). */
async function findFigure(bytes: Uint8Array): Promise<string | undefined> {
  const pdf = await PDFLib.load(bytes);
  for (const [, object] of pdf.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (object.get(PDFName.of('S'))?.toString() !== '/Figure') continue;
    const alt = object.lookup(PDFName.of('Alt'));
    if (alt instanceof PDFHexString || alt instanceof PDFString) return alt.decodeText();
  }
  return undefined;
}

const NAME = 'Zoë Łukasz 王小明 Дмитрий';

const viewOf = (fixture: AnswerFixture): AnswerView => buildFixtureView(fixture);

const COVER: ApplicationCover = {
  applicantName: NAME,
  applicationId: 'a1b2c3d4-0000-4000-8000-000000000001',
  submittedAt: '2026-11-20T15:04:00.000Z',
  generatedAt: '2026-11-23T12:30:00.000Z',
};

const pdfInfo = (bytes: Uint8Array, ...args: string[]) =>
  withFile(bytes, (file) => execFileSync('pdfinfo', [...args, file], { encoding: 'utf8' }));

/** The answer rows of the structure tree as poppler reads them: TH text, TD text, in tree order. */
function structureRows(bytes: Uint8Array): { th: string; td: string }[] {
  return readStructureRows(pdfInfo(bytes, '-struct-text'));
}

/** A small document tagged by its author (pdfkit, an embedded font), `pages` pages long. */
function buildTaggedDocumentPdf(title: string, pages: number): Promise<Uint8Array> {
  const doc = new PDFDocument({
    tagged: true,
    lang: 'en',
    displayTitle: true,
    info: { Title: title },
    autoFirstPage: false,
  });
  const chunks: Uint8Array[] = [];
  const done = new Promise<Uint8Array>((resolve) => {
    doc.on('data', (chunk) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
  });
  doc.registerFont('body', openSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'));
  doc.font('body');
  const root = doc.struct('Document');
  doc.addStructure(root);
  for (let page = 1; page <= pages; page++) {
    doc.addPage();
    const heading = doc.struct('H1');
    root.add(heading);
    const content = doc.markStructureContent('H1');
    doc.text(`${title} part ${page}`);
    doc.endMarkedContent();
    heading.add(content);
    heading.end();
    const paragraph = doc.struct('P');
    root.add(paragraph);
    const text = doc.markStructureContent('P');
    doc.text(`${title} text of part ${page}.`);
    doc.endMarkedContent();
    paragraph.add(text);
    paragraph.end();
  }
  root.end();
  doc.end();
  return done;
}

describe('the PDF/UA checker', () => {
  it('fails on the application PDF as react-pdf renders it', async () => {
    const bytes = await renderApplicationPdf(viewOf(ANSWER_FIXTURES.complete), COVER);
    const checkpoints = new Set((await checkPdfUa(bytes)).map((finding) => finding.checkpoint));
    // No structure tree, no language, no title shown, content untagged, fonts without ToUnicode.
    for (const checkpoint of ['01-001', '01-005', '01-006', '11-001', '06-003', '31-006']) {
      expect(checkpoints).toContain(checkpoint);
    }
  }, 60_000);
});

describe.each(Object.entries(ANSWER_FIXTURES))('the tagged application PDF: %s', (_, fixture) => {
  const view = viewOf(fixture);
  let bytes: Uint8Array;

  beforeAll(async () => {
    bytes = await renderTaggedApplicationPdf(view, COVER);
  }, 60_000);

  it('passes the PDF/UA checker, and poppler reads it as tagged', async () => {
    expect(await checkPdfUa(bytes)).toEqual([]);
    expect(pdfInfo(bytes)).toMatch(/^Tagged:\s+yes$/m);
  });

  it('has one TH/TD row per print view row, in the print view order', () => {
    const rows = structureRows(bytes);
    const pairs = collectAnswerPairs(view);
    expect(rows).toHaveLength(pairs.length);
    pairs.forEach((pair, i) => {
      // A TH also carries the tab the question belongs to, after its label.
      expect(squeeze(rows[i]!.th).startsWith(squeeze(pair.label))).toBe(true);
      expect(squeeze(rows[i]!.td)).toBe(squeeze(pair.value));
    });
  });

  it('reads the same text in page order, and numbers every page', () => {
    const text = withoutPageNumbers(pdfText(bytes));
    const order = view.pages.flatMap((page) => [
      page.title,
      ...page.sections.flatMap((section) => [
        section.title,
        ...section.rows.flatMap((row) =>
          row.kind === 'check' ? [row.value, row.label] : [row.label, row.value],
        ),
      ]),
    ]);
    expect(findOutOfOrder(text, order)).toBeUndefined();
    const pages = pdfPageTexts(bytes);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
  });

  it('has an outline entry per page with one nested entry per section', () => {
    const outline = pdfOutline(bytes);
    expect(outline.map((entry) => entry.title)).toEqual(view.pages.map((page) => page.title));
    outline.forEach((entry, i) => {
      expect(entry.kids.map((kid) => kid.title)).toEqual(
        view.pages[i]!.sections.map((section) => section.title),
      );
    });
  });
});

describe('the tagged application PDF of repeated blocks', () => {
  it('heads an add-another group H2 and each of its blocks H3, as the print view does', async () => {
    const view = viewOf(ANSWER_FIXTURES['add-another']);
    const tree = pdfInfo(await renderTaggedApplicationPdf(view, COVER), '-struct-text');
    const headings = [...tree.matchAll(/^\s*(H[1-3])\b[^\n]*\n\s*"([^"]*)"/gm)].map(
      ([, tag, text]) => `${tag} ${text}`,
    );
    expect(headings).toContain('H2 Parents/Guardians');
    const group = headings.indexOf('H2 Parents/Guardians');
    expect(headings.slice(group + 1, group + 3)).toEqual([
      'H3 Parent 1/Guardian 1',
      'H3 Parent 2/Guardian 2',
    ]);
    expect(headings).toContain('H2 High Schools');
  }, 60_000);
});

describe('the tagged application PDF with combining accents', () => {
  // Typed on a Mac or pasted from some editors, "José" arrives decomposed: e + U+0301. Each
  // mark must reach the text layer and the structure tree as typed, not dropped or replaced.
  const first = 'Jose\u0301';
  const last = 'Nguye\u0302\u0303n';
  const fixture = ANSWER_FIXTURES.complete;
  const view = buildFixtureView(fixture, { first_name: first, last_name: last });
  let bytes: Uint8Array;

  beforeAll(async () => {
    bytes = await renderTaggedApplicationPdf(view, { ...COVER, applicantName: `${first} ${last}` });
  }, 60_000);

  it('reads each name as typed in the text and in the structure tree, and passes the checker', async () => {
    expect(await checkPdfUa(bytes)).toEqual([]);
    const text = pdfText(bytes).normalize('NFC');
    expect(text).toContain(first.normalize('NFC'));
    expect(text).toContain(last.normalize('NFC'));
    const cells = structureRows(bytes).map((row) => squeeze(row.td).normalize('NFC'));
    expect(cells).toContain(first.normalize('NFC'));
    expect(cells).toContain(last.normalize('NFC'));
    expect(text).not.toContain('\uFFFD');
  });
});

describe('the tagged application PDF with documents appended', () => {
  const view = viewOf(ANSWER_FIXTURES.unicode);
  let documents: { title: string; bytes: Uint8Array }[];

  beforeAll(async () => {
    documents = [
      { title: 'Personal Statement', bytes: await buildTaggedDocumentPdf('Statement', 2) },
      { title: 'Resume', bytes: await buildDocumentPdf('Resume', 2) },
    ];
  });

  it('reports the page count of the file it makes, with and without documents', async () => {
    for (const appended of [[], documents]) {
      const { bytes, pages } = await renderCountedTaggedApplicationPdf(view, COVER, appended);
      expect(pages).toBe((await PDFLib.load(bytes)).getPageCount());
    }
  }, 60_000);

  it('keeps a tagged document’s structure under its own section, one tagged file', async () => {
    const bytes = await renderTaggedApplicationPdf(view, COVER, documents.slice(0, 1));
    expect(await checkPdfUa(bytes)).toEqual([]);
    const tree = pdfInfo(bytes, '-struct-text');
    // The section's own heading (the title over the first page) comes first, then the tree.
    expect(tree).toMatch(
      /Sect "Personal Statement"\n\s+H1[^\n]*\n\s+"Personal Statement"\n\s+Document\n\s+H1[^\n]*\n\s+"Statement part 1"/,
    );
    expect(tree).toContain('"Statement text of part 2."');
  }, 60_000);

  it('tags a converted image as a Figure whose alternative text names the question and the file', async () => {
    const image = await PDFLib.create();
    const png = await image.embedPng(Buffer.from(ONE_PIXEL_PNG, 'base64'));
    image.addPage([612, 792]).drawImage(png, { x: 72, y: 72, width: 468, height: 648 });
    const bytes = await renderTaggedApplicationPdf(
      view,
      { ...COVER, listUntaggedDocuments: true },
      [{ title: 'Transcript', bytes: await image.save(), fileName: 'transcript.png' }],
    );
    expect(await checkPdfUa(bytes)).toEqual([]);
    const figure = await findFigure(bytes);
    expect(figure).toBe('Transcript: transcript.png');
    expect(pdfPageTexts(bytes)[0]).not.toContain('not tagged');
  }, 60_000);

  it('appends an untagged document as it is and says so on the staff cover only, which names the round', async () => {
    const staff = await renderTaggedApplicationPdf(
      view,
      { ...COVER, listUntaggedDocuments: true, round: 'Early Action, Fall 2027' },
      documents,
    );
    const applicant = await renderTaggedApplicationPdf(view, COVER, documents);
    const pages = pdfPageTexts(staff);
    expect(squeeze(pages[0]!)).toContain(squeeze('Resume: not tagged by its author'));
    expect(pdfPageTexts(applicant)[0]).not.toContain('not tagged');
    expect(squeeze(pages[0]!)).toContain(squeeze('Round: Early Action, Fall 2027'));
    expect(pdfPageTexts(applicant)[0]).not.toContain('Early Action');
    // Only the untagged document's own two pages fail: its text and its unmapped font.
    const findings = await checkPdfUa(staff);
    const failingPages = new Set(findings.map((f) => /^page (\d+)/.exec(f.message)?.[1]));
    expect([...failingPages]).toEqual([String(pages.length - 1), String(pages.length)]);
    // Same numbering and bookmarks as the react-pdf assembly.
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
    expect(pages.at(-1)).toContain('Resume page 2');
    expect(pdfOutline(staff).slice(-2)).toMatchObject([
      { title: 'Personal Statement', page: pages.length - 3 },
      { title: 'Resume', page: pages.length - 1 },
    ]);
  }, 60_000);
});

/** The children of the Sect titled `title` in poppler's structure dump: type and text of each. */
function listSectKids(tree: string, title: string): { type: string; text: string }[] {
  const lines = tree.split('\n');
  const start = lines.findIndex((line) => line.trim() === `Sect "${title}"`);
  if (start < 0) return [];
  const depth = (line: string) => line.length - line.trimStart().length;
  const own = depth(lines[start]!);
  const kids: { type: string; text: string }[] = [];
  let kidDepth: number | undefined;
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') continue;
    if (depth(line) <= own) break;
    kidDepth ??= depth(line);
    const trimmed = line.trim();
    if (depth(line) === kidDepth) {
      kids.push({ type: /^[A-Za-z0-9]+/.exec(trimmed)?.[0] ?? '', text: '' });
    } else {
      const quoted = /^"(.*)"$/s.exec(trimmed);
      if (quoted) kids.at(-1)!.text += quoted[1];
    }
  }
  return kids;
}

/** The words on page `page` (1-based) as shown, each with its box (poppler's pdftotext -bbox). */
function pdfWords(bytes: Uint8Array, page: number) {
  const html = withFile(bytes, (file) =>
    execFileSync('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-'], {
      encoding: 'utf8',
    }),
  );
  return [
    ...html.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    ),
  ].map(([, xMin, yMin, xMax, yMax, text]) => ({
    text: text!,
    xMin: Number(xMin),
    yMin: Number(yMin),
    xMax: Number(xMax),
    yMax: Number(yMax),
  }));
}

describe('the title over each appended document’s first page', () => {
  const view = viewOf(ANSWER_FIXTURES.unicode);
  const TITLE = 'Personal Statement';
  let answerPages: number;

  beforeAll(async () => {
    answerPages = pdfPageTexts(await renderTaggedApplicationPdf(view, COVER)).length;
  }, 60_000);

  /** Asserts the document's section starts with an H1 of the title, read first on its page. */
  function expectHeading(bytes: Uint8Array, documentPages: number, ownText: string) {
    const kids = listSectKids(pdfInfo(bytes, '-struct-text'), TITLE);
    expect(kids[0]).toEqual({ type: 'H1', text: TITLE });
    const pages = pdfPageTexts(bytes);
    expect(pages).toHaveLength(answerPages + documentPages);
    const first = squeeze(pages[answerPages]!);
    expect(first.startsWith(squeeze(TITLE))).toBe(true);
    if (ownText) expect(first.indexOf(squeeze(ownText))).toBeGreaterThan(0);
    // The title strips are not pages of the file, nor counted in its page numbers.
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
    expect(pdfOutline(bytes).at(-1)).toMatchObject({ title: TITLE, page: answerPages + 1 });
  }

  it('heads a tagged document’s section, before the document’s own tree', async () => {
    const bytes = await renderTaggedApplicationPdf(view, COVER, [
      { title: TITLE, bytes: await buildTaggedDocumentPdf('Statement', 2) },
    ]);
    expectHeading(bytes, 2, 'Statement part 1');
    expect(listSectKids(pdfInfo(bytes, '-struct-text'), TITLE).map((kid) => kid.type)).toEqual([
      'H1',
      'Document',
    ]);
    expect(await checkPdfUa(bytes)).toEqual([]);
  }, 60_000);

  it('heads a converted image’s section, before its Figure', async () => {
    const image = await PDFLib.create();
    const png = await image.embedPng(Buffer.from(ONE_PIXEL_PNG, 'base64'));
    image.addPage([612, 792]).drawImage(png, { x: 72, y: 72, width: 468, height: 648 });
    const bytes = await renderTaggedApplicationPdf(view, COVER, [
      { title: TITLE, bytes: await image.save(), fileName: 'statement.png' },
    ]);
    expectHeading(bytes, 1, '');
    expect(listSectKids(pdfInfo(bytes, '-struct-text'), TITLE).map((kid) => kid.type)).toEqual([
      'H1',
      'Figure',
    ]);
    expect(await checkPdfUa(bytes)).toEqual([]);
  }, 60_000);

  it('gives an untagged document a section holding just its heading', async () => {
    const bytes = await renderTaggedApplicationPdf(view, COVER, [
      { title: TITLE, bytes: await buildDocumentPdf('Resume', 2) },
    ]);
    expectHeading(bytes, 2, 'Resume page 1');
    expect(listSectKids(pdfInfo(bytes, '-struct-text'), TITLE)).toEqual([
      { type: 'H1', text: TITLE },
    ]);
    // The document's own content stays untagged; the heading adds no failure of its own.
    const findings = await checkPdfUa(bytes);
    const failingPages = new Set(findings.map((f) => /^page (\d+)/.exec(f.message)?.[1]));
    expect([...failingPages]).toEqual([String(answerPages + 1), String(answerPages + 2)]);
  }, 60_000);

  it.each([90, 180, 270])(
    'reads upright along the top of a page turned %i degrees',
    async (rotation) => {
      const source = await PDFLib.create();
      const font = await source.embedFont(StandardFonts.Helvetica);
      const page = source.addPage([612, 792]);
      page.drawText('Statement body', { x: 72, y: 400, size: 14, font });
      page.setRotation(degrees(rotation));
      const bytes = await renderTaggedApplicationPdf(view, COVER, [
        { title: TITLE, bytes: await source.save() },
      ]);
      expect(pdfPageTexts(bytes)).toHaveLength(answerPages + 1);
      const layout = withFile(bytes, (file) =>
        execFileSync('pdftotext', ['-layout', '-f', String(answerPages + 1), file, '-'], {
          encoding: 'utf8',
        }),
      );
      expect(layout).toContain(TITLE);
      // Shown left to right on one line, in the band along the top of the page as displayed.
      const words = pdfWords(bytes, answerPages + 1);
      const personal = words.find((word) => word.text === 'Personal')!;
      const statement = words[words.indexOf(personal) + 1]!;
      expect(statement.text).toBe('Statement');
      expect(personal.xMax - personal.xMin).toBeGreaterThan(personal.yMax - personal.yMin);
      expect(statement.xMin).toBeGreaterThan(personal.xMax);
      expect(Math.abs(statement.yMin - personal.yMin)).toBeLessThan(1);
      expect(personal.yMax).toBeLessThan(28);
      expect(personal.xMin).toBeLessThan(20);
      // The heading is tagged: only the untagged document's own content fails the checker.
      const findings = await checkPdfUa(bytes);
      const failingPages = new Set(findings.map((f) => /^page (\d+)/.exec(f.message)?.[1]));
      expect([...failingPages]).toEqual([String(answerPages + 1)]);
      expect(pdfInfo(bytes, '-struct-text')).toMatch(
        /Sect "Personal Statement"\n\s+H1[^\n]*\n\s+"Personal Statement"/,
      );
    },
    60_000,
  );
});

describe('conversion notes stamped on a converted document', () => {
  const view = viewOf(ANSWER_FIXTURES.complete);
  const NOTE = 'A linked picture was left out: it pointed outside the document.';

  it('are the tagged document’s first paragraph, and the application PDF stays one tagged file', async () => {
    const statement = await stampNotes(await buildTaggedDocumentPdf('Statement', 1), [NOTE]);
    const tree = pdfInfo(statement, '-struct-text');
    expect(tree).toMatch(new RegExp(`Document\\n\\s+P\\b[^\\n]*\\n\\s+"${NOTE}"\\n\\s+H1`));
    expect(pdfPageTexts(statement)[0]).toContain(NOTE);
    const bytes = await renderTaggedApplicationPdf(view, COVER, [
      { title: 'Personal Statement', bytes: statement, fileName: 'statement.docx' },
    ]);
    expect(await checkPdfUa(bytes)).toEqual([]);
    expect(pdfInfo(bytes, '-struct-text')).toContain(`"${NOTE}"`);
  }, 60_000);

  it('are drawn on an untagged document too, which keeps its pages', async () => {
    const plain = await buildDocumentPdf('Resume', 2);
    const stamped = await stampNotes(plain, [NOTE, 'A second note.']);
    const pages = pdfPageTexts(stamped);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain(NOTE);
    expect(pages[0]).toContain('A second note.');
  });
});

describe('the staff PDF’s received checklist items (#30)', () => {
  const view = viewOf(ANSWER_FIXTURES['us-citizen']);
  const STAFF: ApplicationCover = { ...COVER, listUntaggedDocuments: true };
  const LETTER = 'Recommendation — Charles Babbage';
  const TYPED = 'Recommendation — Mary Somerville';
  const TRANSCRIPT = 'Official transcript';
  let answerPages: number;
  let documents: PdfDocumentInput[];
  let letter: PdfChecklistItemInput;
  let typed: PdfChecklistItemInput;
  let transcript: PdfChecklistItemInput;

  beforeAll(async () => {
    answerPages = pdfPageTexts(await renderTaggedApplicationPdf(view, COVER)).length;
    documents = [{ title: 'Personal Statement', bytes: await buildTaggedDocumentPdf('Essay', 2) }];
    letter = {
      title: LETTER,
      details: [
        { label: 'Recommender', value: 'Charles Babbage (Teacher)' },
        { label: 'In what capacity', value: 'Teacher' },
      ],
      bytes: await buildTaggedDocumentPdf('Letter', 2),
    };
    typed = {
      title: TYPED,
      details: [{ label: 'Recommender', value: 'Mary Somerville (School counselor)' }],
      text: 'Ada is a remarkable student.\n\nShe is also a kind \u202Eclassmate.',
    };
    transcript = {
      title: TRANSCRIPT,
      details: [{ label: 'File', value: 'transcript.pdf' }],
      bytes: await buildDocumentPdf('Transcript', 2),
    };
  }, 60_000);

  it('ends the file with a section and a top-level bookmark per item, after the documents, numbered in order', async () => {
    const { bytes, pages: counted } = await renderCountedTaggedApplicationPdf(
      view,
      STAFF,
      documents,
      [letter, typed],
    );
    expect(await checkPdfUa(bytes)).toEqual([]);
    expect(pdfInfo(bytes)).toMatch(/^Tagged:\s+yes$/m);
    const pages = pdfPageTexts(bytes);
    // Answers, the document's two pages, the letter's details page and its two pages, the
    // typed letter's page.
    expect(pages).toHaveLength(answerPages + 2 + 3 + 1);
    expect(counted).toBe(pages.length);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
    expect(pdfOutline(bytes).slice(-3)).toEqual([
      { title: 'Personal Statement', page: answerPages + 1, kids: [] },
      { title: LETTER, page: answerPages + 3, kids: [] },
      { title: TYPED, page: answerPages + 6, kids: [] },
    ]);
    expect(squeeze(pages[answerPages + 2]!)).toContain(
      squeeze(`${LETTER} Recommender Charles Babbage (Teacher) In what capacity Teacher`),
    );
    expect(pages[answerPages + 3]).toContain('Letter part 1');
    expect(pages[answerPages + 4]).toContain('Letter part 2');
    // The typed letter as paragraphs; no bidi control survives.
    expect(
      findOutOfOrder(pages[answerPages + 5]!, [
        TYPED,
        'Mary Somerville',
        'Ada is a remarkable student.',
        'She is also a kind classmate.',
      ]),
    ).toBeUndefined();
    expect(pdfText(bytes)).not.toContain('\u202E');

    // In the tree: each item a Sect after the document's, its H1 first, the details' table, then
    // the letter (the tagged PDF's own tree, or the typed paragraphs).
    const tree = pdfInfo(bytes, '-struct-text');
    const sects = tree.split('\n').filter((line) => /^ {2}Sect\b/.test(line));
    expect(sects.at(-3)).toBe('  Sect "Personal Statement"');
    const itemSect = (heading: string) => {
      const at = tree.indexOf(`H1 (block)\n      "${heading}"`);
      expect(at, heading).toBeGreaterThan(0);
      const start = tree.lastIndexOf('\n  Sect', at);
      const end = tree.indexOf('\n  Sect', at);
      return tree.slice(start, end < 0 ? undefined : end);
    };
    const kidsOf = (chunk: string) =>
      chunk.split('\n').flatMap((line) => /^ {4}([A-Za-z0-9]+)/.exec(line)?.[1] ?? []);
    expect(kidsOf(itemSect(LETTER))).toEqual(['H1', 'Table', 'Document']);
    expect(itemSect(LETTER)).toContain('"Letter text of part 2."');
    expect(kidsOf(itemSect(TYPED))).toEqual(['H1', 'Table', 'P', 'P']);
    expect(tree.indexOf(`"${LETTER}"`)).toBeGreaterThan(tree.indexOf('Sect "Personal Statement"'));
    expect(tree.indexOf(`"${TYPED}"`)).toBeGreaterThan(tree.indexOf('"Letter text of part 2."'));
  }, 60_000);

  it('appends an untagged file as it is, named on the staff cover; only its pages fail the checker', async () => {
    const bytes = await renderTaggedApplicationPdf(view, STAFF, [], [typed, transcript]);
    const pages = pdfPageTexts(bytes);
    expect(pages).toHaveLength(answerPages + 1 + 1 + 2);
    expect(squeeze(pages[0]!)).toContain(squeeze(`${TRANSCRIPT}: not tagged by its author`));
    expect(squeeze(pages[0]!)).not.toContain(squeeze(`${TYPED}: not tagged`));
    expect(pages.at(-1)).toContain('Transcript page 2');
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
    const failing = new Set(
      (await checkPdfUa(bytes)).map((f) => /^page (\d+)/.exec(f.message)?.[1]),
    );
    expect([...failing]).toEqual([String(pages.length - 1), String(pages.length)]);
    expect(
      pdfOutline(bytes)
        .slice(-2)
        .map((entry) => [entry.title, entry.page]),
    ).toEqual([
      [TYPED, answerPages + 1],
      [TRANSCRIPT, answerPages + 2],
    ]);
  }, 60_000);
});

describe('the combined PDF of several applications (the export’s --combined)', () => {
  it('is one tagged document: a Part per applicant holding its application’s tree, rows in order', async () => {
    const complete = viewOf(ANSWER_FIXTURES.complete);
    const unicode = viewOf(ANSWER_FIXTURES.unicode);
    const first = await renderTaggedApplicationPdf(complete, { ...COVER, applicantName: 'Ada' });
    const second = await renderTaggedApplicationPdf(unicode, COVER, [
      { title: 'Personal Statement', bytes: await buildTaggedDocumentPdf('Statement', 2) },
    ]);
    const bytes = await combineApplicationPdfs(
      [
        { title: 'Ada Lovelace', read: async () => first },
        { title: NAME, read: async () => second },
      ],
      'Applications',
    );
    expect(await checkPdfUa(bytes)).toEqual([]);
    expect(pdfInfo(bytes)).toMatch(/^Tagged:\s+yes$/m);
    expect(pdfInfo(bytes)).toMatch(/^Title:\s+Applications$/m);

    const tree = pdfInfo(bytes, '-struct-text');
    // Each application's own tree sits directly in its Part (no Document inside a Document).
    const parts = tree.split('\n').filter((line) => /^\s*Part\b/.test(line));
    expect(parts).toHaveLength(2);
    expect(tree).toMatch(/^Document\n {2}Part "Ada Lovelace"\n {4}P\b[^\n]*\n[^\n]*\n {4}H1\b/);
    expect(tree).not.toMatch(/Part[^\n]*\n\s+Document/);
    expect(tree).toContain('"Statement text of part 2."');
    // Every answer row of each application, in the order of its print view.
    const [, ...chunks] = tree.split(/^\s*Part\b.*$/m);
    [complete, unicode].forEach((view, i) => {
      const rows = readStructureRows(chunks[i]!);
      const pairs = collectAnswerPairs(view);
      expect(rows).toHaveLength(pairs.length);
      pairs.forEach((pair, j) => {
        expect(squeeze(rows[j]!.th).startsWith(squeeze(pair.label))).toBe(true);
        expect(squeeze(rows[j]!.td)).toBe(squeeze(pair.value));
      });
    });

    const pages = await PDFLib.load(bytes);
    const [a, b] = await Promise.all([PDFLib.load(first), PDFLib.load(second)]);
    expect(pages.getPageCount()).toBe(a.getPageCount() + b.getPageCount());
    expect(pdfOutline(bytes).map((entry) => [entry.title, entry.page])).toEqual([
      ['Ada Lovelace', 1],
      [NAME, a.getPageCount() + 1],
    ]);
  }, 60_000);
});
