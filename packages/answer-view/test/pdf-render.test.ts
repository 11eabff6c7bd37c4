// The application PDF read back as text, fonts and outline (pdftotext, pdffonts, qpdf).
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnswerView, ApplicationCover } from '../src';
import { ANSWER_FIXTURES, buildFixtureView, type AnswerFixture } from '../src/fixtures';
import { assertPdfFontFiles, renderApplicationPdf } from '../src/pdf';
import {
  buildDocumentPdf,
  findOutOfOrder,
  pdfFonts,
  pdfOutline,
  pdfPageTexts,
  pdfText,
  squeeze,
  withoutPageNumbers,
} from './pdf-tools';
import { buildLargeView, LONG_COMMENT, LONG_ESSAY } from './pdf-sample-view';

const NAME = 'Zoë Łukasz 王小明 Дмитрий';

const viewOf = (fixture: AnswerFixture): AnswerView => buildFixtureView(fixture);

function coverOf(applicantName: string, submittedAt: string | null): ApplicationCover {
  return {
    applicantName,
    applicationId: 'a1b2c3d4-0000-4000-8000-000000000001',
    submittedAt,
    generatedAt: '2026-11-23T12:30:00.000Z',
  };
}

/** Every label and non-empty value of the view, in reading order. */
function readingOrder(view: AnswerView): string[] {
  return view.pages.flatMap((page) => [
    page.title,
    ...page.sections.flatMap((section) => [
      section.title,
      ...section.rows.flatMap((row) =>
        row.kind === 'check' ? [row.value, row.label] : [row.label, row.value],
      ),
    ]),
  ]);
}

describe('renderApplicationPdf: the Unicode applicant', () => {
  const view = viewOf(ANSWER_FIXTURES.unicode);
  let bytes: Uint8Array;
  let text: string;

  beforeAll(async () => {
    bytes = await renderApplicationPdf(view, coverOf(NAME, '2026-11-20T15:04:00.000Z'));
    text = withoutPageNumbers(pdfText(bytes));
  }, 60_000);

  it('prints the applicant name exactly on the cover, with the id and dates', () => {
    const cover = pdfPageTexts(bytes)[0]!;
    expect(cover.split('\n')).toContain(NAME);
    expect(cover).toContain('a1b2c3d4-0000-4000-8000-000000000001');
    expect(cover).toContain('Submitted: November 20, 2026, 15:04 UTC');
    expect(cover).toContain('Generated: November 23, 2026, 12:30 UTC');
  });

  it('prints every label and value of the view, in order', () => {
    const order = readingOrder(view);
    expect(order.length).toBeGreaterThan(100);
    expect(findOutOfOrder(text, order)).toBeUndefined();
    // The Unicode answers themselves, not just somewhere: first, middle and last name rows.
    for (const value of ['Zoë Łukasz', 'Αλέξανδρος', '王小明 Дмитрий']) {
      expect(text).toContain(value);
    }
  });

  it('prints the 7,000-character statement in full, across pages', () => {
    const statement = ANSWER_FIXTURES.unicode.answers.personal_statement_essay!;
    expect(statement.length).toBe(7000);
    expect(squeeze(text).includes(squeeze(statement)), 'the whole statement').toBe(true);
    const pages = pdfPageTexts(bytes).map(squeeze);
    const start = squeeze(statement.slice(0, 60));
    const end = squeeze(statement.slice(-60));
    const first = pages.findIndex((page) => page.includes(start));
    const last = pages.findIndex((page) => page.includes(end));
    expect(first).toBeGreaterThan(0);
    expect(last).toBeGreaterThan(first);
  });

  it('embeds DejaVu Sans and Noto Sans CJK, and no unembedded font but the page numbers', () => {
    const fonts = pdfFonts(bytes);
    expect(fonts.some((f) => f.name.endsWith('+DejaVuSans') && f.embedded)).toBe(true);
    expect(fonts.some((f) => f.name.endsWith('+DejaVuSans-Bold') && f.embedded)).toBe(true);
    expect(fonts.some((f) => f.name.endsWith('+NotoSansCJKsc-Regular') && f.embedded)).toBe(true);
    // Helvetica (a standard PDF font) only draws the ASCII "Page X of Y".
    expect(fonts.filter((f) => !f.embedded).map((f) => f.name)).toEqual(
      fonts.filter((f) => !f.embedded).map(() => 'Helvetica'),
    );
  });

  it('numbers every page "Page X of Y"', () => {
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
      // A page entry opens the page its title is printed on, and each section's its own.
      expect(squeeze(pdfPageTexts(bytes)[entry.page - 1]!)).toContain(squeeze(entry.title));
      for (const kid of entry.kids) {
        expect(squeeze(pdfPageTexts(bytes)[kid.page - 1]!)).toContain(squeeze(kid.title));
      }
    });
  });
});

describe('renderApplicationPdf: documents, covers and edge cases', () => {
  it('appends each converted document after the answers, each with its own bookmark', async () => {
    const view = viewOf(ANSWER_FIXTURES.complete);
    const titles = ['Personal Statement', 'Honors Statement', 'Résumé — 履歴書'];
    const documents = await Promise.all(
      titles.map(async (title, i) => ({ title, bytes: await buildDocumentPdf(`Document ${i}`) })),
    );
    const without = pdfPageTexts(await renderApplicationPdf(view, coverOf(NAME, null)));
    const bytes = await renderApplicationPdf(view, coverOf(NAME, null), documents);
    const pages = pdfPageTexts(bytes);

    expect(pages).toHaveLength(without.length + 6);
    expect(pages[0]).toContain('Submitted: Not submitted');
    const outline = pdfOutline(bytes);
    expect(outline.map((entry) => entry.title)).toEqual([
      ...view.pages.map((page) => page.title),
      ...titles,
    ]);
    titles.forEach((title, i) => {
      const entry = outline[view.pages.length + i]!;
      expect(entry.page).toBe(without.length + 2 * i + 1);
      expect(pages[entry.page - 1]).toContain(`Document ${i} page 1`);
      expect(pages[entry.page]).toContain(`Document ${i} page 2`);
    });
    // Page numbers run on through the appended documents.
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
    expect(pages[without.length]).toContain(`Page ${without.length + 1} of ${pages.length}`);
  }, 60_000);

  it('flows two 7,000-character answers of a large view without clipping', async () => {
    const view = buildLargeView();
    const bytes = await renderApplicationPdf(view, coverOf(NAME, null));
    const text = withoutPageNumbers(pdfText(bytes));
    expect(squeeze(text).includes(squeeze(LONG_ESSAY)), 'the whole essay').toBe(true);
    expect(squeeze(text).includes(squeeze(LONG_COMMENT)), 'the whole comment').toBe(true);
    expect(findOutOfOrder(text, readingOrder(view))).toBeUndefined();
    // A page break never falls between a short row's label and its value.
    const pages = pdfPageTexts(bytes).map(squeeze);
    expect(pages.length).toBeGreaterThan(10);
    const split = view.pages
      .flatMap((page) => page.sections.flatMap((section) => section.rows))
      .filter((row) => row.kind === 'short')
      .filter((row) => !pages.some((page) => page.includes(squeeze(row.label + row.value))));
    expect(split.map((row) => row.key)).toEqual([]);
  }, 60_000);

  it('prints a character no font has as "�", never as nothing', async () => {
    const view: AnswerView = {
      pages: [
        {
          id: 'about',
          title: 'About You',
          sections: [
            {
              id: 'personal',
              title: 'Personal Information',
              rows: [
                { key: 'a', label: 'Preferred Name', value: 'Somchai สมชาย Ok', kind: 'short' },
                { key: 'b', label: 'Middle Name', value: 'Ελένη 안녕 Ok', kind: 'short' },
              ],
            },
          ],
        },
      ],
      documents: [],
    };
    const text = pdfText(await renderApplicationPdf(view, coverOf(NAME, null)));
    expect(text).toContain('Somchai ����� Ok');
    expect(text).toContain('Ελένη 안녕 Ok');
  }, 60_000);

  it('breaks long words and CJK text without adding hyphens', async () => {
    const url = `https://example.com/${'a1b2c3d4e5'.repeat(12)}`;
    const cjk = '我在学校的机器人俱乐部里学会了合作与坚持。'.repeat(12);
    const view: AnswerView = {
      pages: [
        {
          id: 'about',
          title: 'About You',
          sections: [
            {
              id: 's',
              title: 'Links',
              rows: [
                { key: 'u', label: 'Website', value: url, kind: 'short' },
                { key: 'c', label: 'Statement', value: cjk, kind: 'long' },
              ],
            },
          ],
        },
      ],
      documents: [],
    };
    const text = withoutPageNumbers(pdfText(await renderApplicationPdf(view, coverOf(NAME, null))));
    expect(text.replace(/\n/g, '').includes(url), 'the URL, unbroken').toBe(true);
    expect(text.replace(/\n/g, '').includes(cjk), 'the CJK text, unbroken').toBe(true);
  }, 60_000);

  it('renders several applications at once without mixing them up', async () => {
    const names = ['unicode', 'complete', 'us-citizen'] as const;
    const texts = await Promise.all(
      names.map(async (name) => {
        const view = viewOf(ANSWER_FIXTURES[name]);
        const bytes = await renderApplicationPdf(view, coverOf(`Applicant ${name}`, null));
        return { view, text: withoutPageNumbers(pdfText(bytes)) };
      }),
    );
    texts.forEach(({ view, text }, i) => {
      expect(text).toContain(`Applicant ${names[i]}`);
      expect(findOutOfOrder(text, readingOrder(view))).toBeUndefined();
    });
  }, 60_000);

  it('names the Debian package when a font file is missing', () => {
    expect(() => assertPdfFontFiles({ notoCjkDir: '/nonexistent/noto' })).toThrow(
      /NotoSansCJK-Regular\.ttc.*apt-get install fonts-noto-cjk/,
    );
    expect(() => assertPdfFontFiles()).not.toThrow();
  });
});
