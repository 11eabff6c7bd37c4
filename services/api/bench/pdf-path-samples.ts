// The uploaded-PDF path of the conversion bench (issue #27), runnable on its own: p50/p95 of
// convertPdf (qpdf runs, pdf-lib parses, the inert copy) for PDFs the tests build.
import { convertPdf } from '../src/modules/documents/conversion/convert-pdf';
import {
  buildAnnotatedPdf,
  buildOptionalContentPdf,
  buildTextPdf,
} from '../test/support/pdf-builder';
import { percentile } from '../../../bench/report';

export interface PdfPathStats {
  label: string;
  bytes: number;
  p50: number;
  p95: number;
}

const SAMPLES = 30;

export async function measurePdfPath(): Promise<PdfPathStats[]> {
  const cases: [string, Uint8Array][] = [
    ['one-page text PDF', buildTextPdf(['Personal statement, one page of text'])],
    [
      'one-page text PDF with a trailer cut off (repaired)',
      buildTextPdf(['Personal statement'], { damage: 'unterminated-trailer' }),
    ],
    ['nine annotations without appearances and a list box', buildAnnotatedPdf()],
    ['layers, one hidden by default', buildOptionalContentPdf()],
  ];
  const results: PdfPathStats[] = [];
  for (const [label, pdf] of cases) {
    for (let i = 0; i < 5; i++) await convertPdf(pdf);
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const started = performance.now();
      await convertPdf(pdf);
      samples.push(performance.now() - started);
    }
    results.push({
      label,
      bytes: pdf.length,
      p50: percentile(samples, 50),
      p95: percentile(samples, 95),
    });
  }
  return results;
}
