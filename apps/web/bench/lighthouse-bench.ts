// Lighthouse (mobile, simulated throttling: its defaults) on /login and /about of the built SPA
// served by the real API server, plus the first-page JavaScript against its budget (issue #9).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { formatMs, percentile, reportBench } from '../../../bench/report';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../../tests/support/browser';
import {
  FIRST_PAGE_JS_BUDGET_GZIP,
  FIRST_PAGE_ROUTES,
  listRouteJavaScript,
  type FirstPage,
} from '../build-tools/route-javascript';

const LIGHTHOUSE_VERSION = (
  createRequire(import.meta.url)('lighthouse/package.json') as { version: string }
).version;
const WEB_ROOT = path.resolve(import.meta.dirname, '..');
const REPO_ROOT = path.resolve(WEB_ROOT, '../..');
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
// Where to keep each run's full report (JSON), to see what a score is made of; unset keeps none.
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
// Helper A's port range on the shared development machines; the first free one is used.
const PORTS = { first: 4100, last: 4199 };
const PAGES = Object.keys(FIRST_PAGE_ROUTES) as FirstPage[];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const TARGETS = { performance: 90, accessibility: 100 };
// Lighthouse drives Chromium itself (chrome-launcher), with the switches of every other Chromium.
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_FLAGS];

interface RunResult {
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  benchmarkIndex: number;
  failedAudits: string[];
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function findPort(): Promise<number> {
  for (let port = PORTS.first; port <= PORTS.last; port += 1) {
    if (await isPortFree(port)) return port;
  }
  throw new Error(`No free port in ${PORTS.first}–${PORTS.last}.`);
}

/** A build of the current sources in a folder of its own: apps/web/dist may be in use. */
function buildSpa(outDir: string): void {
  const vite = path.join(REPO_ROOT, 'node_modules/.bin/vite');
  const build = spawnSync(
    vite,
    ['build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    {
      cwd: WEB_ROOT,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) throw new Error(`vite build exited with ${build.status ?? build.signal}`);
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** `npm start` without npm: the API on the embedded database, serving `webDist`. */
async function startApi(webDist: string, dataDir: string, port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/boot/server.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WEB_DIST: webDist,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  process.once('exit', () => killGroup(child, 'SIGKILL'));
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The API server exited with ${child.exitCode}.`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.ok) return child;
    } catch {
      // Not listening yet: PGlite creates its database on first start.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  killGroup(child, 'SIGKILL');
  throw new Error('The API server was not healthy within 90 s.');
}

async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  killGroup(child, 'SIGTERM');
  const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Lighthouse once; a run it could not record (NO_NAVSTART, NO_FCP under load) is run again. */
async function runLighthouse(
  url: string,
  port: number,
  reportName?: string,
  attempts = 3,
): Promise<RunResult> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}.`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    if (attempts > 1) return runLighthouse(url, port, reportName, attempts - 1);
    throw new Error(`Lighthouse on ${url}: ${lhr.runtimeError.message}`);
  }
  if (REPORT_DIR && reportName) {
    await mkdir(REPORT_DIR, { recursive: true });
    await writeFile(path.join(REPORT_DIR, `${reportName}.json`), JSON.stringify(lhr));
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? Number.NaN) * 100);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  // Audits that cost points, so a score below target says why without opening a report.
  const failedAudits = CATEGORIES.flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 0.9)
      .map((audit) => `${category}: ${audit!.id} (${audit!.displayValue ?? audit!.score})`),
  );
  return {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
    },
    fcp: metric('first-contentful-paint'),
    lcp: metric('largest-contentful-paint'),
    tbt: metric('total-blocking-time'),
    cls: metric('cumulative-layout-shift'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failedAudits,
  };
}

const median = (values: readonly number[]) => percentile(values, 50);
const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install Debian's package (apt-get install chromium) ` +
        'or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  const started = Date.now();
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'admissions-lighthouse-'));
  const webDist = path.join(workDir, 'dist');
  buildSpa(webDist);
  const javascript = Object.fromEntries(
    PAGES.map((page) => [page, listRouteJavaScript(page, webDist)]),
  ) as Record<FirstPage, ReturnType<typeof listRouteJavaScript>>;

  const port = await findPort();
  const api = await startApi(webDist, path.join(workDir, 'data'), port);
  const chromeProfile = path.join(workDir, 'chrome');
  await mkdir(chromeProfile);
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROME_FLAGS,
    userDataDir: chromeProfile,
  });
  const runs: Record<FirstPage, RunResult[]> = { '/login': [], '/about': [] };
  try {
    // One unrecorded load: the server's first answers include tsx and JIT warm-up.
    await runLighthouse(`http://127.0.0.1:${port}/login`, chrome.port);
    for (let run = 0; run < RUNS; run += 1) {
      for (const page of PAGES) {
        const reportName = `${page.slice(1)}-${run + 1}`;
        runs[page].push(
          await runLighthouse(`http://127.0.0.1:${port}${page}`, chrome.port, reportName),
        );
      }
    }
  } finally {
    chrome.kill();
    await stopApi(api);
    await rm(workDir, { recursive: true, force: true });
  }

  const rows = PAGES.map((page) => {
    const results = runs[page];
    const med = (pick: (r: RunResult) => number) => median(results.map(pick));
    return [
      `\`${page}\``,
      `${med((r) => r.scores.performance)} (≥ ${TARGETS.performance})`,
      `${med((r) => r.scores.accessibility)} (${TARGETS.accessibility})`,
      med((r) => r.scores['best-practices']),
      formatMs(med((r) => r.fcp)),
      formatMs(med((r) => r.lcp)),
      formatMs(med((r) => r.tbt)),
      med((r) => r.cls).toFixed(3),
      `${kB(javascript[page].gzipBytes)} (≤ ${kB(FIRST_PAGE_JS_BUDGET_GZIP[page])})`,
    ];
  });
  const fileRows = PAGES.flatMap((page) =>
    javascript[page].files.map((file) => [
      `\`${page}\``,
      `\`${file.file.replace(/-[\w-]{8}\.js$/, '.js')}\``,
      kB(file.bytes),
      kB(file.gzipBytes),
    ]),
  );
  const failures = [
    ...new Set(
      PAGES.flatMap((page) =>
        runs[page].flatMap((r) => r.failedAudits.map((a) => `\`${page}\` ${a}`)),
      ),
    ),
  ];
  const benchmarkIndex = median(PAGES.flatMap((page) => runs[page].map((r) => r.benchmarkIndex)));

  reportBench({
    id: 'front-end',
    title: 'Front end: Lighthouse and first-page JavaScript (`apps/web`)',
    command: 'npm run bench -w apps/web',
    description:
      'The SPA is built from the current sources into a temporary folder and served by the real ' +
      'API server (`services/api/src/boot/server.ts`, embedded PGlite, a throwaway DATA_DIR) on ' +
      'loopback, so assets arrive pre-compressed with the production cache headers. ' +
      `Lighthouse ${LIGHTHOUSE_VERSION} runs in Debian's Chromium (headless) with its default ` +
      'settings: mobile form factor, simulated throttling (slow 4G, 4× CPU slowdown), categories ' +
      `performance, accessibility and best practices. Each page is measured ${RUNS} times after ` +
      'one unrecorded warm-up load, interleaved; the table gives the medians. The JavaScript ' +
      'column is the gzip size (level 9) of every script a first visit to the page fetches: the ' +
      'entry, the route modules and their static imports, read from the Vite manifest; its ' +
      'budget is enforced by `apps/web/test/bundle-budget.test.ts`.',
    tables: [
      {
        columns: [
          'page',
          'performance (target)',
          'accessibility (target)',
          'best practices',
          'FCP',
          'LCP',
          'TBT',
          'CLS',
          'first-page JS, gzip (budget)',
        ],
        rows,
      },
      {
        caption: 'Scripts of a first visit',
        columns: ['page', 'file', 'minified', 'gzip'],
        rows: fileRows,
      },
    ],
    notes: [
      `Lighthouse's benchmark index of this machine during the run: ${Math.round(benchmarkIndex)} ` +
        '(simulated throttling scales the CPU work it observed, so a busy machine lowers TBT-based scores).',
      ...(failures.length > 0
        ? [`Audits that cost points in some run: ${failures.join('; ')}.`]
        : []),
      `Whole run: ${Math.round((Date.now() - started) / 1000)} s.`,
    ],
  });
}

await main();
