// The batch export (issue #8) in-process on both databases: real storage on local disk, the real
// renderer (the staff PDF's renderApplication on a pool of threads), real files.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config';
import { parseExportArgs } from '../src/modules/export/options';
import { createProgress } from '../src/modules/export/progress';
import { createApplicationRenderer, type ApplicationRenderer } from '../src/modules/export/render';
import { createRenderPool, type RenderPool } from '../src/modules/export/render-pool';
import { runExport, type ExportSummary } from '../src/modules/export/run';
import { STATE_FILE } from '../src/modules/export/state';
import { applicationPdfFileName } from '@admissions/answer-view/file-name';
import { csvField, formatIndexCsv, guardFormula } from '../src/modules/export/index-writers';
import { primaryDriver, createTestRuntime, type TestRuntime } from './support/test-runtime';
import { seedApplications, type SeededApplication } from './support/seed-applications';
import { pdfPageCount, pdfText } from './support/pdf-inspect';
import { mintServiceToken } from '../src/modules/service/service-tokens';
import { cliNodeArgs } from './support/process-stack';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface IndexJson {
  total: number;
  failed: number;
  applications: {
    id: string;
    name: string;
    email: string;
    file: string;
    pages: number | null;
    bytes: number | null;
    sha256: string;
    documents: string[];
    export: string;
    error: string;
    status: string;
    submitted_at: string | null;
  }[];
}

const readIndex = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as IndexJson;

const silent = createProgress({ write: () => undefined, isTTY: false });

let pool: RenderPool;
beforeAll(() => {
  pool = createRenderPool(2, loadConfig({}));
});
afterAll(async () => {
  await pool.close();
});

describe('file names', () => {
  it('keeps only safe characters, transliterating every script', () => {
    const id = '0b6f3c1e-5a9d-4c2b-9e8f-7a6b5c4d3e2f';
    const name = (last: string, first: string) =>
      applicationPdfFileName({ last_name: last, first_name: first }, id);
    expect(name('../../etc', 'passwd')).toBe(`etc_passwd_${id}.pdf`);
    expect(name('王小明 Дмитрий', 'Zoë Łukasz')).toBe(`wangxiaoming-dmitriy_zoe-lukasz_${id}.pdf`);
    expect(name('', '')).toBe(`${id}.pdf`);
    expect(name("O'Brien-Núñez", 'Mary Ann')).toBe(`obrien-nunez_mary-ann_${id}.pdf`);
    expect(name('a\\b/c:d*e?f"g<h>i|j', 'Ελένη')).toBe(`a-b-c-d-e-f-g-h-i-j_eleni_${id}.pdf`);
    expect(name('_under_score_', 'x')).toBe(`under-score_x_${id}.pdf`);
    expect(name('Straße', 'Æsa')).toBe(`strasse_aesa_${id}.pdf`);
  });
});

describe('index writers', () => {
  it('quotes RFC 4180 fields and defuses formulas', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    for (const bad of ['=HYPERLINK("x")', '+1', '-1', '@SUM(A1)']) {
      expect(guardFormula(bad)).toBe(`'${bad}`);
    }
    const csv = formatIndexCsv([
      {
        id: 'x',
        name: '=cmd|calc',
        email: 'a@example.edu',
        submitted_at: null,
        status: 'submitted',
        file: 'x.pdf',
        pages: 3,
        bytes: 10,
        sha256: 'ab',
        documents: ['Essay, final'],
        export: 'rendered',
        error: '',
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe(
      'x,\'=cmd|calc,a@example.edu,,submitted,x.pdf,3,10,ab,1,"Essay, final",rendered,',
    );
  });
});

describe('progress', () => {
  it('rewrites one line on a terminal with count, rate and ETA', () => {
    let out = '';
    let now = 0;
    const progress = createProgress({ write: (s) => (out += s), isTTY: true }, () => now);
    progress.start(4);
    now = 30_000;
    progress.done({ id: 'a', file: 'a.pdf' });
    now = 60_000;
    progress.done({ id: 'b', error: 'broken document' });
    progress.finish();
    expect(out).toContain('\r\x1b[2KExporting 0/4 · 0/min · ETA --:--');
    expect(out).toContain('\r\x1b[2KExporting 1/4 · 2/min · ETA 1:30');
    expect(out).toContain('failed b: broken document\n');
    expect(out).toContain('Exporting 2/4 (1 failed) · 2/min · ETA 1:00');
    expect(out.endsWith('\n')).toBe(true);
  });

  it('writes plain lines elsewhere', () => {
    const lines: string[] = [];
    let now = 0;
    const progress = createProgress({ write: (s) => lines.push(s), isTTY: false }, () => now);
    progress.start(2);
    now = 6_000;
    progress.done({ id: 'a', file: 'a.pdf' });
    expect(lines).toEqual(['[1/2] wrote a.pdf (10/min, ETA 0:06)\n']);
    expect(lines.join('')).not.toContain('\r');
  });
});

describe('export options', () => {
  it('refuses bad flags with a message', () => {
    const parse = (args: string[]) => () => parseExportArgs(args, '/tmp', 2);
    expect(parse([])).toThrow(/--out DIR is required/);
    expect(parse(['--out', 'x', '--status', 'done'])).toThrow(/--status must be/);
    expect(parse(['--out', 'x', '--since', '2026-02-30'])).toThrow(/--since must be a date/);
    expect(parse(['--out', 'x', '--since', '2026-03-02', '--until', '2026-03-01'])).toThrow(
      /later than --until/,
    );
    expect(parse(['--out', 'x', '--concurrency', '0'])).toThrow(/--concurrency/);
    expect(parse(['--out', 'x', '--zap'])).toThrow(/Unknown option '--zap'/);
    const ok = parseExportArgs(['--out', 'x', '--until', '2026-03-01'], '/tmp', 2);
    expect(ok.out).toBe('/tmp/x');
    expect(ok.until?.toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(ok.concurrency).toBe(2);
  });
});

describe.each(primaryDriver())('export on %s', (driver) => {
  let t: TestRuntime;
  let seeded: SeededApplication[];
  let render: ApplicationRenderer;
  let renders = 0;
  const work = mkdtempSync(path.join(os.tmpdir(), 'export-test-'));

  const run = (dir: string, flags: string[] = []): Promise<ExportSummary> =>
    runExport(parseExportArgs(['--out', dir, ...flags], work, 2), {
      db: t.runtime.database.db,
      render: async (id) => {
        renders++;
        return render(id);
      },
      progress: silent,
    });

  beforeAll(async () => {
    t = await createTestRuntime(driver, { RUN_WORKER_IN_PROCESS: 'false' });
    const deps = {
      db: t.runtime.database.db,
      storage: t.runtime.storage,
      encryptionKey: t.runtime.secrets.encryptionKey,
    };
    seeded = await seedApplications(deps, {
      count: 20,
      names: [
        { first: 'passwd', last: '../../etc' },
        { first: 'Zoë Łukasz', last: '王小明' },
        { first: '=HYPERLINK("http://evil")', last: 'Formula' },
      ],
    });
    // Not selected by default: started, not submitted.
    await seedApplications(deps, { count: 2, submittedAt: () => null, emailPrefix: 'started' });
    render = createApplicationRenderer(
      { ...deps, clock: t.clock, partner: t.runtime.partner },
      pool.render,
    );
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('writes one PDF per submitted application and an index whose hashes match', async () => {
    const dir = path.join(work, 'loose');
    const summary = await run(dir);
    expect(summary).toMatchObject({ selected: 20, rendered: 20, unchanged: 0, exitCode: 0 });
    const pdfs = readdirSync(dir).filter((f) => f.endsWith('.pdf'));
    expect(pdfs).toHaveLength(20);
    for (const file of pdfs) expect(file).toMatch(/^[A-Za-z0-9_-]+\.pdf$/);
    const index = readIndex(dir);
    expect(index.applications).toHaveLength(20);
    expect(new Set(index.applications.map((r) => r.id))).toEqual(new Set(seeded.map((s) => s.id)));
    for (const row of index.applications) {
      const bytes = readFileSync(path.join(dir, row.file));
      expect(row.sha256).toBe(sha256(bytes));
      expect(row.bytes).toBe(bytes.length);
      expect(row.status).toBe('submitted');
    }
    // Pages as a PDF reader counts them, documents appended after the answers.
    const withDocs = seeded.find((s) => Object.keys(s.documents).length === 3)!;
    const row = index.applications.find((r) => r.id === withDocs.id)!;
    expect(row.documents).toHaveLength(3);
    const withoutDocs = index.applications.find((r) => r.documents.length === 0)!;
    expect(pdfPageCount(readFileSync(path.join(dir, row.file)))).toBe(row.pages);
    expect(row.pages!).toBeGreaterThanOrEqual(withoutDocs.pages! + 6);

    const csv = readFileSync(path.join(dir, 'index.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'id,name,email,submitted_at,status,file,pages,bytes,sha256,documents_included,documents,export,error',
    );
    expect(csv.filter((l) => l !== '')).toHaveLength(21);
    expect(csv.find((l) => l.includes('Formula'))).toContain(`"'=HYPERLINK(""http://evil"")`);
    expect(pdfs).toContain(`etc_passwd_${seeded[0]!.id}.pdf`);
    expect(pdfs).toContain(`wangxiaoming_zoe-lukasz_${seeded[1]!.id}.pdf`);
    expect(existsSync(path.join(dir, STATE_FILE))).toBe(true);
  });

  it('exports the same document as the staff PDF (GET /service/pdf)', async () => {
    const dir = path.join(work, 'loose');
    const app = seeded.find((s) => Object.keys(s.documents).length === 3)!;
    const row = readIndex(dir).applications.find((r) => r.id === app.id)!;
    const { token } = mintServiceToken(t.runtime.secrets.serviceTokenKey, {
      applicationId: app.id,
      now: t.clock.now(),
    });
    const staff = await t.request({
      method: 'GET',
      url: `/service/pdf?service_token=${encodeURIComponent(token)}`,
    });
    expect(staff.statusCode).toBe(200);
    const exported = readFileSync(path.join(dir, row.file));
    // Same clock, same renderer: the same text on the same pages (the bytes differ only in the
    // PDF's own creation metadata).
    expect(pdfText(exported)).toBe(pdfText(staff.rawPayload));
    expect(pdfPageCount(exported)).toBe(pdfPageCount(staff.rawPayload));
  });

  it('renders nothing on a rerun, one application after it changed, and a missing file again', async () => {
    const dir = path.join(work, 'loose');
    renders = 0;
    expect(await run(dir)).toMatchObject({ rendered: 0, unchanged: 20, exitCode: 0 });
    expect(renders).toBe(0);
    expect(readIndex(dir).applications.every((r) => r.export === 'unchanged')).toBe(true);

    const changed = seeded[5]!;
    await t.runtime.database.db.execute(
      sql`UPDATE applications SET answer = answer || '{"preferred_name":"Changed"}'::jsonb,
          version = version + 1 WHERE user_id = ${changed.id}`,
    );
    expect(await run(dir)).toMatchObject({ rendered: 1, unchanged: 19 });
    expect(renders).toBe(1);
    const index = readIndex(dir);
    expect(index.applications.find((r) => r.id === changed.id)?.export).toBe('rendered');

    // A killed run's half-written file is cleared away.
    writeFileSync(path.join(dir, '.x.pdf.0123456789ab.tmp'), 'half');
    expect(await run(dir)).toMatchObject({ rendered: 0 });
    expect(existsSync(path.join(dir, '.x.pdf.0123456789ab.tmp'))).toBe(false);

    // A deleted file and a file whose bytes changed are rendered again.
    const [a, b] = index.applications;
    rmSync(path.join(dir, a!.file));
    writeFileSync(path.join(dir, b!.file), 'not the PDF we wrote');
    expect(await run(dir)).toMatchObject({ rendered: 2, unchanged: 18 });

    renders = 0;
    expect(await run(dir, ['--force'])).toMatchObject({ rendered: 20, unchanged: 0 });
    expect(renders).toBe(20);
  });

  it('selects by status, date and a list of ids or e-mails', async () => {
    const all = await run(path.join(work, 'all'), ['--status', 'all']);
    expect(all.selected).toBe(22);
    const started = await run(path.join(work, 'started'), ['--status', 'started']);
    expect(started.selected).toBe(2);
    expect(readIndex(path.join(work, 'started')).applications[0]?.status).toBe('started');
    const dated = await run(path.join(work, 'dated'), [
      '--since',
      '2026-11-01',
      '--until',
      '2026-11-01',
    ]);
    expect(dated.selected).toBe(20);
    expect((await run(path.join(work, 'none'), ['--since', '2026-11-02'])).selected).toBe(0);
    const idsFile = path.join(work, 'ids.txt');
    writeFileSync(
      idsFile,
      `# two applicants\n${seeded[3]!.id}\n${seeded[4]!.email.toUpperCase()}\nnobody@example.edu\n\n`,
    );
    const listed = await run(path.join(work, 'listed'), ['--ids', idsFile]);
    expect(listed.selected).toBe(2);
    expect(listed.failures).toEqual([
      { id: 'nobody@example.edu', name: '', reason: 'no application with this id or e-mail' },
    ]);
    expect(listed.exitCode).toBe(2);
  });

  it('writes a zip and a combined PDF with a bookmark per applicant', async () => {
    const dir = path.join(work, 'packed');
    const summary = await run(dir, ['--zip', '--combined']);
    expect(summary.exitCode).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.pdf'))).toHaveLength(0);
    const zip = summary.outputs.find((f) => f.endsWith('.zip'))!;
    const listing = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
    expect(
      listing.filter((f) => /^[A-Za-z0-9_-]+\.pdf$/.test(f) && f !== 'combined.pdf'),
    ).toHaveLength(20);
    expect(listing).toEqual(expect.arrayContaining(['index.csv', 'index.json', 'combined.pdf']));
    execFileSync('unzip', ['-tq', zip]);
    const combinedBytes = execFileSync('unzip', ['-p', zip, 'combined.pdf'], {
      maxBuffer: 1 << 28,
    });
    await expectOutline(combinedBytes, 20);

    // A rerun is incremental in zip mode too, and --combined alone writes it beside loose files.
    renders = 0;
    expect(await run(dir, ['--zip'])).toMatchObject({ rendered: 0, unchanged: 20 });
    const loose = await run(path.join(work, 'loose'), ['--combined']);
    const combined = loose.outputs.find((f) => f.endsWith('.pdf'))!;
    const doc = await expectOutline(readFileSync(combined), 20);
    // One tagged document, a Part of the structure tree per applicant.
    expect(execFileSync('pdfinfo', [combined], { encoding: 'utf8' })).toMatch(/^Tagged:\s+yes$/m);
    const parts = execFileSync('pdfinfo', ['-struct', combined], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    }).match(/^ {2}Part\b/gm);
    expect(parts).toHaveLength(20);
    const pages = readIndex(path.join(work, 'loose')).applications.reduce(
      (n, r) => n + r.pages!,
      0,
    );
    expect(doc.getPageCount()).toBe(pages);
  });

  it('reports a broken stored document while the others complete (exit code 2)', async () => {
    const broken = seeded.find((s) => Object.keys(s.documents).length > 0)!;
    const key = Object.values(broken.documents)[0]!;
    const original = await t.runtime.storage.read(key, 1 << 24);
    await t.runtime.storage.write(
      key,
      new TextEncoder().encode('%PDF-1.7 garbage'),
      'application/pdf',
    );
    try {
      const dir = path.join(work, 'broken');
      const summary = await run(dir);
      expect(summary.exitCode).toBe(2);
      expect(summary.rendered).toBe(19);
      expect(summary.failures).toHaveLength(1);
      expect(summary.failures[0]).toMatchObject({ id: broken.id });
      expect(summary.failures[0]!.reason).not.toBe('');
      const index = readIndex(dir);
      expect(index.failed).toBe(1);
      expect(index.applications.find((r) => r.id === broken.id)).toMatchObject({
        export: 'failed',
        file: '',
      });
      expect(readdirSync(dir).filter((f) => f.endsWith('.pdf'))).toHaveLength(19);
    } finally {
      await t.runtime.storage.write(key, original!, 'application/pdf');
    }
  });
});

async function expectOutline(bytes: Uint8Array, entries: number): Promise<PDFDocument> {
  const doc = await PDFDocument.load(bytes);
  const outlines = doc.catalog.lookup(PDFName.of('Outlines'), PDFDict);
  expect(outlines.lookup(PDFName.of('Count'), PDFNumber).asNumber()).toBe(entries);
  let count = 0;
  let item = outlines.get(PDFName.of('First'));
  while (item instanceof PDFRef) {
    count++;
    item = doc.context.lookup(item, PDFDict).get(PDFName.of('Next'));
  }
  expect(count).toBe(entries);
  // Each applicant's own bookmarks (pages, sections, documents) hang closed beneath their entry,
  // pointing at pages of the combined document.
  const pages = new Set(doc.getPages().map((p) => p.ref.toString()));
  const first = doc.context.lookup(outlines.get(PDFName.of('First')), PDFDict);
  expect(first.lookup(PDFName.of('Count'), PDFNumber).asNumber()).toBeLessThan(0);
  const child = doc.context.lookup(first.get(PDFName.of('First')), PDFDict);
  const target = child.lookup(PDFName.of('Dest'), PDFArray).get(0);
  expect(pages.has(String(target))).toBe(true);
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'combined-')), 'combined.pdf');
  writeFileSync(file, bytes);
  try {
    execFileSync('qpdf', ['--check', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  } finally {
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
  return doc;
}

// The command itself: flags and exit codes as an operator sees them.
describe('npm run cli -- export', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, cliNodeArgs(['export', ...args]), {
        cwd: path.resolve(import.meta.dirname, '..'),
        env: {
          ...process.env,
          DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'export-cli-')),
          ...env,
        },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('exits 1 with a message and the usage on bad flags', async () => {
    const result = await cli(['--out', '/tmp/x', '--status', 'pending', '--concurrency', 'lots']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--status must be submitted, started or all (got "pending")');
    expect(result.stderr).toContain('--concurrency must be a whole number');
    expect(result.stderr).toContain('Usage: npm run cli -- export --out DIR');
  });

  it('exits 1 for --queue on the embedded database with no server to run the jobs', async () => {
    const result = await cli(['--out', path.join(os.tmpdir(), 'never-written'), '--queue']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--queue needs PostgreSQL');
  });

  it('exits 1 when the database cannot be reached', async () => {
    const result = await cli(['--out', path.join(os.tmpdir(), 'never-written')], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Cannot reach the database \(postgres\)/);
  });
});
