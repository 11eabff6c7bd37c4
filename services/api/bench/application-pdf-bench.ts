// Application PDF benchmark (issues #7 and #32), one run prints:
//  - the tagged (PDF/UA) render with pdfkit that the service uses, beside react-pdf's untagged one,
//    alternating in the same loop
//  - the first (cold) render in a fresh process: font loading, module compilation, JIT
//  - renderApplicationPdf p50/p95 and documents per second for the complete application fixture,
//    without documents and with three converted two-page documents appended
//  - heap growth over N renders (after a full GC on both sides)
//  - beside them, Chromium's page.pdf() of the same print view (packages/answer-view ./web rendered
//    with react-dom/server inside MantineProvider, Mantine's CSS and the print CSS), on a warm page
//    that is set up once and printed repeatedly
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { formatApplicantName, type ApplicationCover } from '@admissions/answer-view';
import { buildFixtureView, COMPLETE_FIXTURE } from '@admissions/answer-view/fixtures';
import { renderApplicationPdf, renderTaggedApplicationPdf } from '@admissions/answer-view/pdf';
import { PrintView } from '@admissions/answer-view/web';
import { formatMs as ms, percentile, reportBench } from '../../../bench/report';
import { launchBrowser } from '../../../tests/support/browser';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
function stats(samples: number[]) {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}
async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

async function buildDocument(title: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 2; page++) {
    const p = pdf.addPage([612, 792]);
    for (let line = 0; line < 40; line++) {
      p.drawText(`${title}, page ${page}: a converted statement, line ${line + 1}.`, {
        x: 72,
        y: 720 - line * 16,
        size: 11,
        font,
      });
    }
  }
  return pdf.save();
}

const fixture = COMPLETE_FIXTURE;
const view = buildFixtureView(fixture);
const cover: ApplicationCover = {
  applicantName: formatApplicantName(fixture.answers),
  applicationId: '3f1c2a9e-5b7d-4c1e-9a0b-2d4e6f8a1c3b',
  email: 'amara.okonkwo@example.com',
  submittedAt: '2026-11-20T15:04:00.000Z',
  generatedAt: new Date().toISOString(),
};
const rows = view.pages.reduce(
  (n, page) => n + page.sections.reduce((m, section) => m + section.rows.length, 0),
  0,
);
const documents = await Promise.all(
  ['Personal Statement', 'Honors Statement', 'Business Statement'].map(async (title) => ({
    title,
    bytes: await buildDocument(title),
  })),
);

// Cold: the first render of this process (fonts parsed, modules compiled, nothing warm).
const cold = await time(() => renderApplicationPdf(view, cover));
const first = await renderApplicationPdf(view, cover);
const answerPages = (await PDFDocument.load(first)).getPageCount();
const withDocuments = await renderApplicationPdf(view, cover, documents);
const totalPages = (await PDFDocument.load(withDocuments)).getPageCount();

const taggedCold = await time(() => renderTaggedApplicationPdf(view, cover));
const taggedPages = (
  await PDFDocument.load(await renderTaggedApplicationPdf(view, cover))
).getPageCount();

// The four cases alternate, so a busy neighbour on a shared machine slows all alike. CPU time of
// this process (all threads, so GC helpers count) is printed beside wall time: it is what the
// render costs when nothing else competes for the cores.
type Measured = { p50: number; p95: number; cpu: number; perSecond: number };
type Render = typeof renderApplicationPdf;
async function measure(count: number): Promise<Measured[]> {
  const cases = [
    { render: renderApplicationPdf as Render, docs: [] as typeof documents },
    { render: renderApplicationPdf as Render, docs: documents },
    { render: renderTaggedApplicationPdf as Render, docs: [] as typeof documents },
    { render: renderTaggedApplicationPdf as Render, docs: documents },
  ].map((c) => ({ ...c, wall: [] as number[], cpu: [] as number[], total: 0 }));
  for (let i = 0; i < 10; i++) for (const c of cases) await c.render(view, cover, c.docs);
  for (let i = 0; i < count; i++) {
    for (const c of cases) {
      const cpu = process.cpuUsage();
      const wall = await time(() => c.render(view, cover, c.docs));
      const used = process.cpuUsage(cpu);
      c.wall.push(wall);
      c.cpu.push((used.user + used.system) / 1000);
      c.total += wall;
    }
  }
  return cases.map((c) => ({
    ...stats(c.wall),
    cpu: stats(c.cpu).p50,
    perSecond: count / (c.total / 1000),
  }));
}
const [bare, merged, tagged, taggedMerged] = (await measure(60)) as [
  Measured,
  Measured,
  Measured,
  Measured,
];

const heapRenders = 100;
const heapBefore = heapAfterGc();
for (let i = 0; i < heapRenders; i++) await renderApplicationPdf(view, cover);
const heapAfter = heapAfterGc();
for (let i = 0; i < heapRenders; i++) await renderTaggedApplicationPdf(view, cover);
const taggedHeapAfter = heapAfterGc();
const rss = process.memoryUsage().rss;

// Chromium: the same view as HTML, printed by a warm page.
const require = createRequire(import.meta.url);
const mantineCss = readFileSync(require.resolve('@mantine/core/styles.css'), 'utf8');
const markup = renderToStaticMarkup(
  createElement(MantineProvider, null, createElement(PrintView, { view, cover })),
);
const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Application</title><style>${mantineCss}</style></head><body>${markup}</body></html>`;
let chrome: { p50: number; p95: number; perSecond: number; pages: number } | undefined;
let chromeFull: { p50: number; p95: number; perSecond: number } | undefined;
// A machine without Debian's Chromium still gets the PDF renderers' rows.
const browser = await launchBrowser().catch((error: unknown) => {
  console.error(`Chromium not measured: ${String(error).split('\n')[0]}`);
  return undefined;
});
if (browser)
  try {
    const page = await browser.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    const print = () => page.pdf({ format: 'Letter', printBackground: true });
    const pages = (await PDFDocument.load(await print())).getPageCount();
    for (let i = 0; i < 5; i++) await print();
    const samples: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 40; i++) samples.push(await time(print));
    chrome = { ...stats(samples), perSecond: 40 / ((performance.now() - started) / 1000), pages };

    // Like for like: what renderApplicationPdf does per application is lay out a new application
    // and number its pages with an outline, so Chromium loads the markup afresh each time and prints
    // with a page-number footer, its outline (bookmarks from the headings) and tagged.
    const printApplication = async () => {
      await page.setContent(html, { waitUntil: 'load' });
      await page.pdf({
        format: 'Letter',
        printBackground: true,
        outline: true,
        tagged: true,
        displayHeaderFooter: true,
        headerTemplate: '<span></span>',
        footerTemplate:
          '<div style="font-size:8px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
      });
    };
    for (let i = 0; i < 5; i++) await printApplication();
    const fullSamples: number[] = [];
    const fullStarted = performance.now();
    for (let i = 0; i < 40; i++) fullSamples.push(await time(printApplication));
    chromeFull = {
      ...stats(fullSamples),
      perSecond: 40 / ((performance.now() - fullStarted) / 1000),
    };
  } finally {
    await browser.close();
  }

reportBench({
  id: 'application-pdf',
  title: 'Application PDF (`packages/answer-view/pdf`, issues #7 and #32)',
  command: 'npm run bench -w services/api -- application-pdf',
  description:
    '`renderTaggedApplicationPdf` (pdfkit + pdf-lib, tagged PDF/UA, what the service renders) ' +
    `beside \`renderApplicationPdf\` (react-pdf + pdf-lib, untagged) on the complete fixture: ${view.pages.length} ` +
    `pages of ${rows} answer rows → ${answerPages} PDF pages with react-pdf, ${taggedPages} tagged ` +
    `(${totalPages} react-pdf pages with three two-page ` +
    'documents appended). The four cases alternate so that a busy neighbour slows all alike; CPU ' +
    'time of the process (all threads) is given beside wall time. Beside it, Debian Chromium ' +
    "printing the same print view (`answer-view/web` rendered with react-dom/server and Mantine's " +
    'CSS): once as a reprint of an already loaded page, once like for like (fresh markup per ' +
    'application, page-number footer and outline), which is what the server does per application.',
  tables: [
    {
      columns: ['measure', 'result', 'target'],
      rows: [
        [
          'tagged (pdfkit), no documents, p50 (p95) of 60',
          `${ms(tagged.p50)} (${ms(tagged.p95)}); CPU p50 ${ms(tagged.cpu)}`,
          'p50 ≤ 70 ms',
        ],
        ['… applications per second, one at a time', tagged.perSecond.toFixed(1), '—'],
        [
          'tagged (pdfkit) + three 2-page documents, p50 (p95) of 60',
          `${ms(taggedMerged.p50)} (${ms(taggedMerged.p95)}); CPU p50 ${ms(taggedMerged.cpu)}`,
          '—',
        ],
        ['tagged: first render in a fresh process (after react-pdf’s)', ms(taggedCold), '—'],
        [
          `tagged: heap growth over ${heapRenders} renders (after GC)`,
          mb(taggedHeapAfter - heapAfter),
          '~0',
        ],
        ['react-pdf CPU p50 ÷ tagged CPU p50', (bare.cpu / tagged.cpu).toFixed(2), '> 1'],
        [
          'react-pdf (untagged), no documents, p50 (p95) of 60',
          `${ms(bare.p50)} (${ms(bare.p95)}); CPU p50 ${ms(bare.cpu)}`,
          'p50 < 200 ms',
        ],
        ['… applications per second, one at a time', bare.perSecond.toFixed(1), '—'],
        [
          'react-pdf (untagged) + three 2-page documents, p50 (p95) of 60',
          `${ms(merged.p50)} (${ms(merged.p95)}); CPU p50 ${ms(merged.cpu)}`,
          '—',
        ],
        ['… applications per second, one at a time', merged.perSecond.toFixed(1), '—'],
        ['first render in a fresh process (cold: fonts, JIT)', ms(cold), '—'],
        [
          `heap growth over ${heapRenders} renders (after GC)`,
          `${mb(heapAfter - heapBefore)} (${mb(heapBefore)} → ${mb(heapAfter)}; RSS ${mb(rss)})`,
          '~0',
        ],
        ...(chrome && chromeFull
          ? [
              [
                'Chromium page.pdf() of the print view, warm page, p50 (p95) of 40',
                `${ms(chrome.p50)} (${ms(chrome.p95)}), ${chrome.pages} pages`,
                '—',
              ],
              ['… applications per second', chrome.perSecond.toFixed(1), '—'],
              [
                'Chromium per application: setContent + tagged page.pdf() with page numbers and outline, p50 (p95) of 40',
                `${ms(chromeFull.p50)} (${ms(chromeFull.p95)})`,
                '—',
              ],
              ['… applications per second', chromeFull.perSecond.toFixed(1), '—'],
              [
                'react-pdf p50 ÷ Chromium p50 (reprint only)',
                (bare.p50 / chrome.p50).toFixed(2),
                '—',
              ],
              [
                'react-pdf p50 ÷ Chromium p50 (per application, like for like)',
                (bare.p50 / chromeFull.p50).toFixed(2),
                '< 1 (ahead of Chromium)',
              ],
              [
                'tagged p50 ÷ Chromium tagged p50 (per application, like for like)',
                (tagged.p50 / chromeFull.p50).toFixed(2),
                '< 1',
              ],
            ]
          : [['Chromium', 'not installed on this machine: not measured', '—']]),
      ],
    },
  ],
});
