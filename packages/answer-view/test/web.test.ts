import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { APPLICATION_DEFINITION, DEFAULT_PARTNER } from '@admissions/form';
import {
  listSectionGroups,
  buildAnswerView,
  collectAnswerPairs,
  type AnswerView,
  type ApplicationCover,
} from '../src';
import { ANSWER_FIXTURES, type AnswerFixture } from '../src/fixtures';
import { PrintView, PRINT_VIEW_CSS } from '../src/web';

const cover: ApplicationCover = {
  applicantName: 'Zoë Łukasz 王小明 Дмитрий',
  applicationId: 'APP-000123',
  email: 'zoe@example.com',
  submittedAt: '2026-11-20T15:04:00.000Z',
  generatedAt: '2026-11-21T09:30:00.000Z',
};

function viewOf(fixture: AnswerFixture, audience: 'applicant' | 'service' = 'applicant') {
  return buildAnswerView(APPLICATION_DEFINITION, fixture.answers, {
    partner: DEFAULT_PARTNER,
    ...fixture,
    audience,
  });
}

function render(view: AnswerView, props: Partial<Parameters<typeof PrintView>[0]> = {}): string {
  return renderToStaticMarkup(
    createElement(MantineProvider, null, createElement(PrintView, { view, cover, ...props })),
  );
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#x27': "'",
  '#39': "'",
};
const decode = (s: string) =>
  s.replace(/&(#x27|#39|amp|lt|gt|quot);/g, (_, e: string) => ENTITIES[e] ?? '');

/** The label/value pairs of the markup's rows, in document order, as the parity test reads them. */
function extractPairs(html: string): { label: string; value: string }[] {
  const pairs: { label: string; value: string }[] = [];
  const tag = /<div [^>]*data-answer-label="([^"]*)"[^>]*data-answer-value="([^"]*)"/g;
  for (const match of html.matchAll(tag)) {
    pairs.push({ label: decode(match[1] ?? ''), value: decode(match[2] ?? '') });
  }
  return pairs;
}

function headingLevels(html: string): number[] {
  return [...html.matchAll(/<h([1-6])\b/g)].map((m) => Number(m[1]));
}

describe('PrintView (./web)', () => {
  it.each(Object.values(ANSWER_FIXTURES).map((f) => [f.name, f] as const))(
    '%s: shows the pairs of collectAnswerPairs, in order, and nothing hidden',
    (_, fixture) => {
      for (const audience of ['applicant', 'service'] as const) {
        const view = viewOf(fixture, audience);
        const html = render(view);
        expect(extractPairs(html)).toEqual(collectAnswerPairs(view));
        expect(html).not.toMatch(/HIDDEN/);
      }
    },
  );

  it('headings go h1 applicant, h2 page, h3 section or add-another group, h4 block, and nothing is interactive', () => {
    const view = viewOf(ANSWER_FIXTURES['add-another']);
    const html = render(view);
    const levels = headingLevels(html);
    expect(levels[0]).toBe(1);
    expect(levels.filter((l) => l === 1)).toHaveLength(1);
    // Never skips a level going down.
    levels.reduce((previous, level) => {
      expect(level).toBeLessThanOrEqual(previous + 1);
      return level;
    });
    const groups = view.pages.flatMap((p) => listSectionGroups(p.sections));
    const blocks = groups.flatMap((g) => (g.kind === 'blocks' ? g.sections : []));
    // Three pages and the document list, then one h3 per section or group, an h4 per block.
    expect(levels.filter((l) => l === 2)).toHaveLength(view.pages.length + 1);
    expect(levels.filter((l) => l === 3)).toHaveLength(groups.length);
    expect(blocks.length).toBeGreaterThan(2);
    expect(levels.filter((l) => l === 4)).toHaveLength(blocks.length);
    expect(html).toMatch(/<h3[^>]*>Parents\/Guardians<\/h3>/);
    expect(html).toMatch(/<h4[^>]*>Parent 2\/Guardian 2<\/h4>/);
    expect(html).not.toMatch(/<(button|input|select|textarea|a)\b/);
    expect(html).toMatch(/<main class="av-print"/);
  });

  it('shows the cover: applicant, application id, e-mail, submitted and generated', () => {
    const html = render(viewOf(ANSWER_FIXTURES.unicode));
    expect(html).toMatch(/<h1[^>]*>Zoë Łukasz 王小明 Дмитрий<\/h1>/);
    for (const text of [
      'APP-000123',
      'zoe@example.com',
      'November 20, 2026, 15:04 UTC',
      'November 21, 2026, 09:30 UTC',
    ]) {
      expect(html).toContain(text);
    }
    const unsubmitted = renderToStaticMarkup(
      createElement(
        MantineProvider,
        null,
        createElement(PrintView, {
          view: viewOf(ANSWER_FIXTURES.unicode),
          cover: { ...cover, submittedAt: null },
        }),
      ),
    );
    expect(unsubmitted).toContain('Not submitted');
  });

  it('lays long answers out full width with their line breaks, and says which tab', () => {
    const fixture = ANSWER_FIXTURES.unicode;
    const html = render(viewOf(fixture));
    expect(html).toContain('class="av-row av-row-long"');
    expect(PRINT_VIEW_CSS).toMatch(/\.av-row dd \{[^}]*white-space: pre-wrap/);
    // The 7,000-character statement is there whole, paragraphs and all.
    const statement = fixture.answers.personal_statement_essay ?? '';
    const pair = extractPairs(html).find((p) => p.value === statement);
    expect(pair).toBeDefined();
    expect(html).toContain('<p class="av-section-tab">Type Your Response</p>');
  });

  it('lists documents with name and size', () => {
    const html = render(viewOf(ANSWER_FIXTURES['add-another']));
    expect(html).toContain('data-document-key="personal_statement_doc"');
    expect(html).toContain('personal-statement.pdf (140.0 KB)');
    expect(html).toMatch(
      /data-answer-kind="document"[^>]*data-answer-value="honors-essay.pdf \(94.0 KB\)"/,
    );
  });

  it('masks identifiers in the markup too', () => {
    const html = render(viewOf(ANSWER_FIXTURES['add-another']));
    expect(html).toContain('***-**-7890');
    expect(html).not.toContain('234-56-7890');
    expect(html).not.toContain('A123456789');
  });

  it('print CSS: a page per step, headings kept with their rows, rows unbroken, no ink wasted', () => {
    expect(PRINT_VIEW_CSS).toMatch(/@media print/);
    expect(PRINT_VIEW_CSS).toMatch(/\.av-page \{[^}]*break-before: page/);
    expect(PRINT_VIEW_CSS).toMatch(/\.av-section-title \{[^}]*break-after: avoid/);
    expect(PRINT_VIEW_CSS).toMatch(/\.av-row \{[^}]*break-inside: avoid/);
    expect(PRINT_VIEW_CSS).toMatch(/box-shadow: none/);
  });

  it('can leave the stylesheet to the page and use another root element', () => {
    const html = render(viewOf(ANSWER_FIXTURES['us-citizen']), {
      withStyles: false,
      component: 'article',
    });
    expect(html).not.toContain('.av-print {');
    expect(html).toMatch(/<article class="av-print"/);
  });
});
