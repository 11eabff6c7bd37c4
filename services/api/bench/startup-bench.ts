// The compiled service against the same service under tsx: how long from `node …` until the server
// answers GET /health with 200 (and until the worker, with the embedded default, is ready). Both
// start on the same migrated DATA_DIR (one first start is not measured), alternately, so machine
// load falls on all alike. Target (issue #16): the compiled server starts at least 2× faster than
// under tsx. tsx is measured twice: as the Docker image and a first `npm start` ran it before the
// compiled build — no transform cache, so every TypeScript file compiled at each start (a new
// container's /tmp is empty) — and as a developer's restart, with tsx's on-disk cache warm.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatMs, percentile, reportBench } from '../../../bench/report';
import { buildCompiledService, findFreePort } from '../test/support/process-stack';

// Nine of each: single starts on a 2-core machine vary by ±30 ms; the median of nine holds still.
const ROUNDS = Number(process.env.STARTUP_BENCH_ROUNDS ?? 9);
const TARGET_RATIO = 2;
const serviceRoot = path.resolve(import.meta.dirname, '..');

const COMMANDS = {
  compiled: { args: ['--enable-source-maps', 'dist/server.js'], env: {} },
  'tsx, no cache': {
    args: ['--import', 'tsx', 'src/boot/server.ts'],
    env: { TSX_DISABLE_CACHE: '1' },
  },
  'tsx, warm cache': { args: ['--import', 'tsx', 'src/boot/server.ts'], env: {} },
} as const;
type Variant = keyof typeof COMMANDS;
const VARIANTS = Object.keys(COMMANDS) as Variant[];

async function measureStart(variant: Variant, dataDir: string): Promise<number> {
  const port = await findFreePort();
  const started = performance.now();
  const child = spawn(process.execPath, COMMANDS[variant].args, {
    cwd: serviceRoot,
    env: {
      ...process.env,
      ...COMMANDS[variant].env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant} server exited ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (ok) return performance.now() - started;
      if (performance.now() - started > 120_000) throw new Error(`${variant} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

async function main(): Promise<void> {
  buildCompiledService();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'startup-bench-'));
  try {
    // Creates and migrates the embedded database once; every measured start finds it ready.
    await measureStart('compiled', dataDir);
    // And fills tsx's cache for the warm-cache starts.
    await measureStart('tsx, warm cache', dataDir);
    const samples = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<
      Variant,
      number[]
    >;
    for (let round = 0; round < ROUNDS; round++) {
      for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
        samples[variant].push(await measureStart(variant, dataDir));
      }
    }
    const median = (values: number[]) => percentile(values, 50);
    const ratioTo = (variant: Variant) => median(samples[variant]) / median(samples.compiled);
    reportBench({
      id: 'startup',
      title: 'Server start-up, compiled against tsx (`services/api`, issue #16)',
      command: 'npm run bench -w services/api -- startup',
      description:
        'Time from `node …` until GET /health answers 200, on the embedded default (PGlite) with ' +
        `an already migrated DATA_DIR; ${ROUNDS} starts of each, in turn, medians. ` +
        '`compiled` is `npm start` and the Docker image now (node dist/server.js: the esbuild ' +
        'bundle dist/server.cjs, compiled from the V8 code cache the build writes beside it); ' +
        '`tsx, no cache` is how the image and a first start ran before (node --import ' +
        "tsx src/boot/server.ts, every file transformed: a new container's /tmp holds no tsx " +
        'cache); `tsx, warm cache` is a developer restarting under tsx. Target: the compiled ' +
        `server starts at least ${TARGET_RATIO}× faster than under tsx.`,
      tables: [
        {
          columns: ['command', 'median', 'min', 'max'],
          rows: VARIANTS.map((variant) => [
            variant,
            formatMs(median(samples[variant])),
            formatMs(Math.min(...samples[variant])),
            formatMs(Math.max(...samples[variant])),
          ]),
        },
        {
          columns: ['baseline', 'baseline / compiled', `≥ ${TARGET_RATIO}×`],
          rows: VARIANTS.filter((variant) => variant !== 'compiled').map((variant) => [
            variant,
            `${ratioTo(variant).toFixed(2)}×`,
            ratioTo(variant) >= TARGET_RATIO ? 'yes' : 'no',
          ]),
        },
      ],
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
