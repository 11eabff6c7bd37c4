// The one way a benchmark hands its figures to `npm run bench`: it prints them as Markdown for the
// person watching and, when the orchestrator set BENCH_RESULTS_DIR, also writes them as JSON so
// that BENCHMARKS.md is rebuilt from this run alone (bench/run.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type BenchCell = string | number;

export interface BenchTable {
  /** Optional heading above the table, e.g. the driver or the fixture. */
  caption?: string;
  columns: string[];
  rows: BenchCell[][];
}

export interface BenchSection {
  /** Stable identifier and file name, e.g. "lookups" or "load". */
  id: string;
  /** Heading in BENCHMARKS.md, e.g. "Lookups (`services/api`, issue #5)". */
  title: string;
  /** The command that reproduces this section alone. */
  command: string;
  /** What is measured and how (Markdown, a paragraph or two). */
  description: string;
  tables: BenchTable[];
  /** Observations worth keeping beside the numbers (Markdown, one item each). */
  notes?: string[];
}

/** Formats milliseconds with three significant figures: 0.165, 1.02, 41.3, 1139. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${Number(ms.toPrecision(3))} ms`;
}

/** Nearest-rank percentile of already collected samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function renderTable(table: BenchTable): string {
  const escape = (cell: BenchCell) => String(cell).replaceAll('|', '\\|').replaceAll('\n', ' ');
  const lines = [
    `| ${table.columns.map(escape).join(' | ')} |`,
    `|${table.columns.map(() => '---').join('|')}|`,
    ...table.rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ];
  return (table.caption ? `${table.caption}\n\n` : '') + lines.join('\n');
}

export function reportBench(section: BenchSection): void {
  console.log(`\n## ${section.title}\n`);
  for (const table of section.tables) console.log(`${renderTable(table)}\n`);
  for (const note of section.notes ?? []) console.log(`- ${note}`);
  const dir = process.env.BENCH_RESULTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${section.id}.json`), `${JSON.stringify(section, null, 2)}\n`);
}
