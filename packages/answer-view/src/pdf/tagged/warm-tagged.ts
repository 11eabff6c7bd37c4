// Parses the fonts and renders a small tagged application once, so the first real request does not
// pay for font parsing and JIT warm-up. Call at server (or sandbox child) start.
import type { PdfFontPaths } from '../fonts';
import { renderTaggedApplicationPdf } from './assemble-tagged';
import { loadTaggedFonts } from './tagged-answer-pages';

export async function warmTaggedPdfRenderer(paths: PdfFontPaths = {}): Promise<void> {
  loadTaggedFonts(paths);
  await renderTaggedApplicationPdf(
    {
      pages: [
        {
          id: 'about',
          title: 'About You',
          sections: [
            {
              id: 'warm',
              title: 'Zoë Łukasz 王小明 Дмитрий',
              rows: [
                {
                  key: 'warm',
                  label: 'Name',
                  value: 'Zoë Łukasz 王小明 Дмитрий Ελένη',
                  kind: 'short',
                },
              ],
            },
          ],
        },
      ],
      documents: [],
    },
    {
      applicantName: 'Warm-up',
      applicationId: '0',
      submittedAt: null,
      generatedAt: new Date(0).toISOString(),
    },
    [],
    { fontPaths: paths },
  );
}
