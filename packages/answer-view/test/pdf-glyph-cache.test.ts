// Fonts and their glyph caches live as long as the process, so what one PDF embeds must not change
// what the next one says when its text is copied or searched. Its own file: it needs the fonts
// untouched by other renders (vitest gives each test file its own worker).
import { describe, expect, it } from 'vitest';
import type { AnswerView, ApplicationCover } from '../src';
import { renderApplicationPdf } from '../src/pdf';
import { pdfText } from './pdf-tools';

const cover: ApplicationCover = {
  applicantName: 'A',
  applicationId: '1',
  submittedAt: null,
  generatedAt: '2026-11-23T12:30:00.000Z',
};

function viewOf(value: string): AnswerView {
  return {
    pages: [
      {
        id: 'about',
        title: 'A',
        sections: [{ id: 's', title: 'B', rows: [{ key: 'k', label: 'C', value, kind: 'short' }] }],
      },
    ],
    documents: [],
  };
}

describe('renderApplicationPdf, one PDF after another', () => {
  it('keeps every letter of the next PDF searchable after one in Cyrillic and Greek', async () => {
    // DejaVu draws Cyrillic р and Greek Ε from the Latin p and E: embedding them first must not
    // leave p and E without their Unicode mapping in later PDFs.
    const first = pdfText(await renderApplicationPdf(viewOf('Дмитрий Ελένη Ѕ'), cover));
    expect(first).toContain('Дмитрий Ελένη Ѕ');
    const second = pdfText(await renderApplicationPdf(viewOf('example CEEB Springfield'), cover));
    expect(second).toContain('example CEEB Springfield');
  }, 60_000);
});
