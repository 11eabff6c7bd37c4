// `npm run bench`: every benchmark of the project, one after another (they measure latency, so
// they must not compete for the two cores), then BENCHMARKS.md rewritten from this run alone —
// the machine, the date, and each benchmark's figures as it reported them (bench/report.ts).
// `npm run bench -- --print` runs everything but leaves BENCHMARKS.md alone.
// `npm run bench -- deadline` (any names) runs only the benchmarks whose file names contain one of
// them and replaces just their sections in BENCHMARKS.md, each marked as measured alone.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { renderTable, type BenchSection } from './report';

const root = path.resolve(import.meta.dirname, '..');
const printOnly = process.argv.includes('--print');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));

/** The workspaces with a bench script, in the order their sections appear. */
const WORKSPACES = ['packages/form', 'services/api', 'apps/web'];
/** Section order in BENCHMARKS.md; sections not listed follow in name order. */
const SECTION_ORDER = [
  'engine',
  'lookups',
  'conversion',
  'isolation',
  'application-pdf',
  'export',
  'data-export',
  'staff-list',
  'load',
  'autosave',
  'faults',
  'deadline',
  'front-end',
];

function readVersion(command: string, args: string[], pattern: RegExp): string {
  try {
    const output = execFileSync(command, args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return pattern.exec(output)?.[1] ?? output.trim();
  } catch {
    return 'not installed';
  }
}

function describeMachine(): string[] {
  const release = existsSync('/etc/os-release')
    ? (/^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? '')
    : '';
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const memory = `${Math.round(os.totalmem() / 1024 ** 3)} GiB`;
  const postgres = readVersion(
    'psql',
    [
      process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      '-tAc',
      'SHOW server_version',
    ],
    /^(\S+)/,
  );
  return [
    `${release || os.type()} (${os.type()} ${os.release()}), ${os.availableParallelism()} cores (${cpu}), ${memory}`,
    `Node ${process.version}; PostgreSQL ${postgres}; ` +
      `LibreOffice ${readVersion('soffice', ['--version'], /LibreOffice (\S+)/)}; ` +
      `Chromium ${readVersion(process.env.CHROMIUM_PATH ?? 'chromium', ['--version'], /Chromium (\S+)/)}`,
  ];
}

function formatLoad(): string {
  return os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
}

function orderSections(sections: BenchSection[]): BenchSection[] {
  const rank = (id: string) => {
    const at = SECTION_ORDER.indexOf(id);
    return at === -1 ? SECTION_ORDER.length : at;
  };
  return [...sections].sort((a, b) => rank(a.id) - rank(b.id) || a.id.localeCompare(b.id));
}

function renderBenchmarks(options: {
  sections: BenchSection[];
  failures: string[];
  machine: string[];
  startedAt: Date;
  minutes: number;
  loadBefore: string;
  loadAfter: string;
}): string {
  const lines = [
    '# Benchmarks',
    '',
    '<!-- Written by `npm run bench` (bench/run.ts); edit bench/history.md or the benchmarks, not this file. -->',
    '',
    'Every figure below comes from one run of `npm run bench` on the machine and date given here; ' +
      "each section names the command that reproduces it alone (that one prints, it doesn't " +
      'write this file). Timing never decides a pass/fail test; these are the numbers we track.',
    '',
    `- Date: ${options.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
      `${options.minutes.toFixed(1)} minutes in all`,
    `- Machine: ${options.machine[0]}`,
    `- Software: ${options.machine[1]}`,
    `- Load average (1 / 5 / 15 min) before the run: ${options.loadBefore}; after: ${options.loadAfter}`,
    '',
  ];
  if (options.failures.length > 0) {
    lines.push(
      `**Not measured in this run** (the benchmark failed): ${options.failures.join(', ')}.`,
      '',
    );
  }
  for (const section of orderSections(options.sections)) lines.push(...renderSection(section));
  if (existsSync(historyFile)) lines.push(readFileSync(historyFile, 'utf8').trim(), '');
  return lines.join('\n');
}

const historyFile = path.join(root, 'bench/history.md');

function renderSection(section: BenchSection): string[] {
  const lines = [`## ${section.title}`, '', `Command: \`${section.command}\``, ''];
  lines.push(section.description, '');
  for (const table of section.tables) lines.push(renderTable(table), '');
  for (const note of section.notes ?? []) lines.push(`- ${note}`);
  if ((section.notes ?? []).length > 0) lines.push('');
  return lines;
}

/**
 * BENCHMARKS.md with the sections of a run of some benchmarks put in place of their earlier
 * figures (or before the history, when new); the header and every other section stay as the
 * last whole run left them. Each replaced section says when and how it was measured, since the
 * header's date and load are not its own.
 */
function mergeSections(existing: string, sections: BenchSection[], measured: string): string {
  const historyHeading = existsSync(historyFile)
    ? readFileSync(historyFile, 'utf8').split('\n', 1)[0]!
    : '## Earlier runs and what changed';
  const lines = existing.split('\n');
  const historyAt = lines.indexOf(historyHeading);
  const body = historyAt === -1 ? lines : lines.slice(0, historyAt);
  const tail = historyAt === -1 ? [] : lines.slice(historyAt);
  // Blocks start at each `## ` heading; the first block is the header.
  const blocks: string[][] = [[]];
  for (const line of body) {
    if (line.startsWith('## ')) blocks.push([]);
    blocks.at(-1)!.push(line);
  }
  for (const section of sections) {
    const rendered = renderSection({
      ...section,
      notes: [...(section.notes ?? []), measured],
    });
    const at = blocks.findIndex((block) => block[0] === `## ${section.title}`);
    if (at === -1) blocks.push(rendered);
    else blocks[at] = rendered;
  }
  return [...blocks.flat(), ...tail].join('\n');
}

const startedAt = new Date();
const loadBefore = formatLoad();
const machine = describeMachine();
const resultsDir = mkdtempSync(path.join(os.tmpdir(), 'bench-results-'));
const failures: string[] = [];
const ran: string[] = [];
/** A workspace's benchmark files (`bench/*-bench.ts`), which the names of a partial run select. */
function listBenchFiles(workspace: string): string[] {
  const dir = path.join(root, workspace, 'bench');
  return existsSync(dir) ? readdirSync(dir).filter((file) => file.endsWith('-bench.ts')) : [];
}
try {
  for (const workspace of WORKSPACES) {
    const manifest = JSON.parse(
      readFileSync(path.join(root, workspace, 'package.json'), 'utf8'),
    ) as {
      scripts?: Record<string, string>;
    };
    if (!manifest.scripts?.bench) continue;
    if (only.length > 0 && !listBenchFiles(workspace).some((f) => only.some((n) => f.includes(n))))
      continue;
    ran.push(workspace);
    console.log(`\n##### ${workspace} #####`);
    const args = [
      'run',
      '--silent',
      'bench',
      '-w',
      workspace,
      ...(only.length ? ['--', ...only] : []),
    ];
    const result = spawnSync('npm', args, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, BENCH_RESULTS_DIR: resultsDir },
    });
    if (result.status !== 0) failures.push(`${workspace} (exit ${result.status ?? result.signal})`);
  }
  const sections = readdirSync(resultsDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(resultsDir, file), 'utf8')) as BenchSection);
  const minutes = (Date.now() - startedAt.getTime()) / 60_000;
  if (only.length > 0 && ran.length === 0) {
    console.error(`No benchmark file matches ${only.join(', ')}.`);
    process.exitCode = 1;
  } else if (!printOnly && only.length > 0 && sections.length > 0) {
    const file = path.join(root, 'BENCHMARKS.md');
    const measured =
      `Measured alone with \`npm run bench -- ${only.join(' ')}\` on ` +
      `${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC (${minutes.toFixed(1)} ` +
      `minutes; load average 1 / 5 / 15 min before: ${loadBefore}, after: ${formatLoad()}), ` +
      'not in the run the header describes.';
    writeFileSync(
      file,
      mergeSections(existsSync(file) ? readFileSync(file, 'utf8') : '', sections, measured),
    );
    spawnSync('npx', ['prettier', '--write', '--log-level', 'warn', 'BENCHMARKS.md'], {
      cwd: root,
      stdio: 'inherit',
    });
    console.log(`\nBENCHMARKS.md: ${sections.length} sections replaced or added.`);
  } else if (!printOnly && only.length === 0) {
    const markdown = renderBenchmarks({
      sections,
      failures,
      machine,
      startedAt,
      minutes,
      loadBefore,
      loadAfter: formatLoad(),
    });
    writeFileSync(path.join(root, 'BENCHMARKS.md'), markdown);
    // Prettier owns Markdown layout in this repo; the file must pass `prettier --check`.
    spawnSync('npx', ['prettier', '--write', '--log-level', 'warn', 'BENCHMARKS.md'], {
      cwd: root,
      stdio: 'inherit',
    });
    console.log(
      `\nBENCHMARKS.md written: ${sections.length} sections in ${minutes.toFixed(1)} min.`,
    );
  }
  if (failures.length > 0) {
    console.error(`Failed: ${failures.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(resultsDir, { recursive: true, force: true });
}
