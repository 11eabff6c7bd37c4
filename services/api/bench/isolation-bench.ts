// Isolation benchmark (issue #14), one run prints:
//  - conversion latency p50/p95 per type (png, jpeg, pdf, docx) over a mixed set built here,
//    through the production dispatcher: checks and converters in sandbox children, docx through
//    the LibreOffice pool, one document at a time
//  - API p99 (GET /health, PUT /api/answer) of one embedded server (PGlite, worker in-process, as
//    `npm start` runs) while idle, and then while the worst files an applicant can upload are
//    converted and the application PDFs that contain them are rendered — the same run, the same
//    process, the same probe
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import sharp, { type Sharp } from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { loadConfig } from '../src/platform/config';
import { createDocumentConverter } from '../src/modules/documents/conversion/convert-document';
import type { DocumentType } from '../src/modules/documents/conversion/detect-file-type';
import { createOfficePool } from '../src/modules/documents/conversion/libreoffice/office-pool';
import { startRuntime, type Runtime } from '../src/boot/runtime';
import { createConfiguredSandbox } from '../src/platform/sandbox/sandbox-pool';
import { DOCUMENT_SANDBOX_TASKS } from '../src/modules/documents';
import { PRINT_SANDBOX_TASKS } from '../src/modules/print';
import {
  buildDocx,
  buildSlowDocx,
  buildTwoPageDocx,
  paragraph,
} from '../test/support/document-fixtures';
import {
  buildHugePng,
  buildNestedTablesDocx,
  buildObjectStreamBombPdf,
  buildPageTreeBombPdf,
} from '../test/support/hostile-files';
import { multipartBody } from '../test/support/upload-client';
import { formatMs as ms, percentile, reportBench } from '../../../bench/report';

const logger = pino({ level: 'silent' });
const PASSES = 3;

// ---- the mixed set ----------------------------------------------------------------------------

/** Photo-like pixels (smooth gradients and noise), so that the encoders do real work. */
async function buildPhoto(width: number, height: number, channels: 3 | 4): Promise<Sharp> {
  const pixels = Buffer.alloc(width * height * channels);
  let seed = width * 7919 + height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const i = (y * width + x) * channels;
      pixels[i] = (x * 255) / width + (seed % 16);
      pixels[i + 1] = (y * 255) / height + ((seed >> 4) % 16);
      pixels[i + 2] = ((x + y) * 128) / (width + height) + ((seed >> 8) % 16);
      if (channels === 4) pixels[i + 3] = x < width / 8 ? 128 : 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } });
}

async function buildTextPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= pages; page++) {
    const p = doc.addPage([612, 792]);
    for (let line = 0; line < 40; line++) {
      p.drawText(`Transcript page ${page}, line ${line + 1}: course, grade, credits.`, {
        x: 72,
        y: 720 - line * 16,
        size: 11,
        font,
      });
    }
  }
  return doc.save();
}

async function buildMixedSet(): Promise<{ type: DocumentType; name: string; bytes: Uint8Array }[]> {
  const set: { type: DocumentType; name: string; bytes: Uint8Array }[] = [];
  const sizes: [number, number][] = [
    [640, 480],
    [1024, 768],
    [1600, 1200],
    [2400, 1600],
  ];
  for (const [w, h] of sizes) {
    set.push({
      type: 'png',
      name: `rgb-${w}.png`,
      bytes: await (await buildPhoto(w / 2, h / 2, 3)).png().toBuffer(),
    });
    set.push({
      type: 'png',
      name: `rgba-interlaced-${w}.png`,
      bytes: await (await buildPhoto(w / 4, h / 4, 4)).png({ progressive: true }).toBuffer(),
    });
    set.push({
      type: 'jpeg',
      name: `photo-${w}.jpg`,
      bytes: await (await buildPhoto(w, h, 3)).jpeg({ quality: 85 }).toBuffer(),
    });
    set.push({
      type: 'jpeg',
      name: `progressive-${w}.jpg`,
      bytes: await (await buildPhoto(w, h, 3)).jpeg({ quality: 80, progressive: true }).toBuffer(),
    });
  }
  for (const pages of [1, 2, 5, 10, 20]) {
    set.push({ type: 'pdf', name: `transcript-${pages}.pdf`, bytes: await buildTextPdf(pages) });
  }
  set.push({ type: 'docx', name: 'statement.docx', bytes: buildTwoPageDocx() });
  set.push({
    type: 'docx',
    name: 'essay.docx',
    bytes: buildDocx({
      body: paragraph('An essay paragraph of ordinary length, repeated. '.repeat(20)).repeat(40),
    }),
  });
  set.push({ type: 'docx', name: 'table.docx', bytes: buildSlowDocx(60, 5) });
  return set.filter((f) => f.bytes.length <= 1024 * 1024);
}

// ---- an embedded server and a probe -----------------------------------------------------------

async function registerApplicant(runtime: Runtime, dataDir: string, email: string) {
  const inject = (url: string, payload: object) =>
    runtime.app.inject({ method: 'POST', url, payload });
  const password = 'Cobalt-Lantern-River-58';
  await inject('/public/signup', { username: email, password });
  let code: string | undefined;
  for (let attempt = 0; !code && attempt < 1200; attempt++) {
    const outbox = path.join(dataDir, 'outbox');
    let files: string[] = [];
    try {
      files = readdirSync(outbox).filter((f) => f.endsWith('.json'));
    } catch {
      // Not created until the first message.
    }
    for (const file of files) {
      const message = JSON.parse(readFileSync(path.join(outbox, file), 'utf8')) as {
        to: string;
        text: string;
      };
      if (message.to === email) code = /confirmation code is (\d{6})/.exec(message.text)?.[1];
    }
    if (!code) await sleep(50);
  }
  if (!code) throw new Error(`no confirmation code for ${email}`);
  await inject('/public/confirm', { username: email, code });
  const login = await inject('/public/login', { username: email, password });
  return Object.fromEntries(login.cookies.map((c) => [c.name, c.value]));
}

async function upload(
  runtime: Runtime,
  jar: Record<string, string>,
  answerKey: string,
  name: string,
  bytes: Uint8Array,
) {
  const presigned = await runtime.app.inject({
    method: 'POST',
    url: '/api/presigned-url',
    payload: { answer_key: answerKey },
    cookies: jar,
  });
  const { url, fields } = presigned.json() as { url: string; fields: Record<string, string> };
  const { payload, headers } = multipartBody(fields, { name, bytes });
  await runtime.app.inject({ method: 'POST', url, payload, headers });
  await runtime.app.inject({
    method: 'POST',
    url: `/api/pdf/document-answer/${answerKey}`,
    payload: { file_key: fields.key, file_name: name },
    cookies: jar,
  });
}

async function waitForStatus(
  runtime: Runtime,
  jar: Record<string, string>,
  url: string,
): Promise<string> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const response = await runtime.app.inject({ method: 'GET', url, cookies: jar });
    const status = (response.json() as { status: string }).status;
    if (!['UNPROCESSED', 'IN_PROGRESS'].includes(status)) return status;
    if (Date.now() > deadline) throw new Error(`${url} still ${status}`);
    await sleep(200);
  }
}

/** GET /health and PUT /api/answer in turn, one after another, until `until` settles. */
async function probe(runtime: Runtime, jar: Record<string, string>, until: Promise<unknown>) {
  const samples = { health: [] as number[], answer: [] as number[] };
  let done = false;
  void until.finally(() => (done = true));
  for (let i = 0; !done; i++) {
    const started = performance.now();
    if (i % 2 === 0) await runtime.app.inject({ method: 'GET', url: '/health' });
    else {
      await runtime.app.inject({
        method: 'PUT',
        url: '/api/answer',
        payload: { first_name: `Probe${i}` },
        cookies: jar,
      });
    }
    (i % 2 === 0 ? samples.health : samples.answer).push(performance.now() - started);
    await sleep(20);
  }
  await until;
  return samples;
}

// ---- run ----------------------------------------------------------------------------------------

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'isolation-bench-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PUBLIC_RATE_LIMIT: '100000',
  GLOBAL_RATE_LIMIT: '10000000',
  WEB_DIST: path.join(dataDir, 'no-web-build'),
  CONVERSION_TIMEOUT_MS: '20000',
});
try {
  // 1. Conversion latency per type.
  const set = await buildMixedSet();
  const office = createOfficePool({ size: 1, timeoutMs: 20_000, recycleAfter: 200, logger });
  const sandbox = createConfiguredSandbox(config, logger, [
    DOCUMENT_SANDBOX_TASKS,
    PRINT_SANDBOX_TASKS,
  ]);
  const converter = createDocumentConverter({ pool: office, sandbox, logger, timeoutMs: 20_000 });
  await office.warm();
  for (const file of set) await converter.convert({ bytes: file.bytes, fileName: file.name });
  const latency: Record<DocumentType, number[]> = { png: [], jpeg: [], pdf: [], docx: [] };
  for (let pass = 0; pass < PASSES; pass++) {
    for (const file of set) {
      const started = performance.now();
      await converter.convert({ bytes: file.bytes, fileName: file.name });
      latency[file.type].push(performance.now() - started);
    }
  }
  await sandbox.close();
  await office.close();

  // 2. API p99, idle and during hostile conversions and renders, on one embedded server.
  const runtime = await startRuntime(config, {
    logger,
    warmConversionPool: true,
    warmPdfRenderer: true,
  });
  try {
    const bystander = await registerApplicant(runtime, dataDir, 'bystander@example.org');
    const first = await registerApplicant(runtime, dataDir, 'hostile.one@example.org');
    const second = await registerApplicant(runtime, dataDir, 'hostile.two@example.org');
    await sleep(5000); // LibreOffice and the renderer's warm-up
    const idle = await probe(runtime, bystander, sleep(20_000));
    const hostileFiles = {
      png: await buildHugePng(),
      objectStreamBomb: buildObjectStreamBombPdf(),
      pageTreeBomb: buildPageTreeBombPdf(),
      nestedTables: buildNestedTablesDocx(),
    };
    const hostileStarted = performance.now();
    const hostileWork = (async () => {
      await Promise.all([
        upload(runtime, first, 'personal_statement_doc', 'scan.png', hostileFiles.png),
        upload(
          runtime,
          first,
          'honors_statement_doc',
          'records.pdf',
          hostileFiles.objectStreamBomb,
        ),
        upload(
          runtime,
          second,
          'personal_statement_doc',
          'transcript.pdf',
          hostileFiles.pageTreeBomb,
        ),
        upload(runtime, second, 'honors_statement_doc', 'essay.docx', hostileFiles.nestedTables),
      ]);
      const outcomes = await Promise.all(
        [first, second].flatMap((jar) =>
          ['personal_statement_doc', 'honors_statement_doc'].map((key) =>
            waitForStatus(runtime, jar, `/api/pdf/document-answer/${key}`),
          ),
        ),
      );
      const pdfs = await Promise.all(
        [first, second].map((jar) => waitForStatus(runtime, jar, '/api/pdf')),
      );
      return { outcomes, pdfs };
    })();
    const hostile = await probe(runtime, bystander, hostileWork);
    const { outcomes, pdfs } = await hostileWork;
    const hostileSeconds = (performance.now() - hostileStarted) / 1000;

    const p = (samples: number[], q: number) => ms(percentile(samples, q));
    reportBench({
      id: 'isolation',
      title: 'Isolation (`services/api`, issue #14)',
      command: 'npm run bench -w services/api -- isolation',
      description:
        'Conversion: a mixed set built in code (PNG RGB and interlaced RGBA at four sizes, baseline ' +
        'and progressive JPEG at four sizes, text PDFs of 1 to 20 pages, three docx), converted ' +
        `${PASSES} times one at a time after a warm-up pass through the production dispatcher ` +
        '(checks and converters in sandbox children, docx through one warm LibreOffice). API: ' +
        'one embedded server (PGlite, worker in-process, default sandbox limits, conversion ' +
        'time-out 20 s) probed with GET /health and PUT /api/answer in turn (20 ms apart, ' +
        'in-process requests) for 20 s idle, then while a 7070×7070 PNG, a 900 MB object-stream ' +
        'PDF, a 40,000-reference page tree and 2,000 nested tables are uploaded by two applicants, ' +
        'converted, and their application PDFs rendered.',
      tables: [
        {
          caption: 'Conversion latency per type',
          columns: ['type', 'files', 'samples', 'p50', 'p95'],
          rows: (['png', 'jpeg', 'pdf', 'docx'] as const).map((type) => [
            type,
            set.filter((f) => f.type === type).length,
            latency[type].length,
            p(latency[type], 50),
            p(latency[type], 95),
          ]),
        },
        {
          caption: 'API latency on the same server, idle and during hostile conversions',
          columns: ['phase', 'route', 'samples', 'p50', 'p99', 'max', 'target'],
          rows: [
            [
              'idle',
              'GET /health',
              idle.health.length,
              p(idle.health, 50),
              p(idle.health, 99),
              p(idle.health, 100),
              '—',
            ],
            [
              'idle',
              'PUT /api/answer',
              idle.answer.length,
              p(idle.answer, 50),
              p(idle.answer, 99),
              p(idle.answer, 100),
              '—',
            ],
            [
              'hostile',
              'GET /health',
              hostile.health.length,
              p(hostile.health, 50),
              p(hostile.health, 99),
              p(hostile.health, 100),
              'p99 < 200 ms',
            ],
            [
              'hostile',
              'PUT /api/answer',
              hostile.answer.length,
              p(hostile.answer, 50),
              p(hostile.answer, 99),
              p(hostile.answer, 100),
              'p99 < 200 ms',
            ],
          ],
        },
      ],
      notes: [
        `Hostile phase: ${hostileSeconds.toFixed(0)} s; documents ended ${outcomes.join(', ')}; application PDFs ${pdfs.join(', ')}.`,
      ],
    });
  } finally {
    await runtime.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
