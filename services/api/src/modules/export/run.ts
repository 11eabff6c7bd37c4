// One export run: select, decide what changed since the state file's run, render the changed
// ones a few at a time (each saved and recorded as soon as it is done), then write the index and
// the optional zip and combined PDF over every selected application.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../platform/db/connect';
import { findRound } from '../rounds';
import { buildCombinedPdf } from './combined';
import { ExportFatalError, lockFolder, removeTemporaryFiles } from './folder-lock';
import { formatIndexCsv, formatIndexJson, type IndexMeta, type IndexRow } from './index-writers';
import type { ExportOptions } from './options';
import type { Progress } from './progress';
import { RenderCancelledError, type ApplicationRenderer } from './render';
import { parseIdList, selectApplications, type SelectedApplication } from './selection';
import {
  createStateWriter,
  emptyState,
  loadState,
  writeFileAtomic,
  type ExportState,
} from './state';
import { writeZip, type ZipEntry } from './zip';

/** With --zip the PDFs are kept here between runs (so reruns stay incremental), not loose. */
export const PDF_CACHE_DIR = '.export-pdfs';
const LOCK_FILE = '.export.lock';
/** A file we wrote: `name.pdf` or `.export-pdfs/name.pdf`; anything else in a state file is ignored. */
const OWN_FILE = /^(\.export-pdfs\/)?[A-Za-z0-9_-]+\.pdf$/;

export { ExportFatalError };

export interface ExportFailure {
  id: string;
  name: string;
  reason: string;
}

export interface ExportSummary {
  selected: number;
  rendered: number;
  unchanged: number;
  failures: ExportFailure[];
  interrupted: boolean;
  /** Files written this run besides the PDFs (index, zip, combined PDF), absolute paths. */
  outputs: string[];
  exitCode: 0 | 2 | 130;
}

export interface ExportRunDeps {
  db: Db;
  render: ApplicationRenderer;
  progress: Progress;
  /** Aborted on Ctrl-C: no new application starts, the ones in flight finish. */
  signal?: AbortSignal;
  now?: () => Date;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function hashOf(file: string): Promise<string | null> {
  try {
    return sha256(await readFile(file));
  } catch {
    return null;
  }
}

function timestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

async function freeName(dir: string, base: string, ext: string): Promise<string> {
  for (let i = 0; ; i++) {
    const candidate = path.join(dir, `${base}${i === 0 ? '' : `-${i}`}${ext}`);
    try {
      await stat(candidate);
    } catch {
      return candidate;
    }
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 500) || 'unknown error';
}

export function exitCodeOf(summary: Pick<ExportSummary, 'interrupted' | 'failures'>): 0 | 2 | 130 {
  if (summary.interrupted) return 130;
  return summary.failures.length > 0 ? 2 : 0;
}

export async function runExport(
  options: ExportOptions,
  deps: ExportRunDeps,
): Promise<ExportSummary> {
  const now = deps.now ?? (() => new Date());
  const out = options.out;
  try {
    await mkdir(out, { recursive: true });
  } catch (error) {
    throw new ExportFatalError(`cannot create ${out}: ${reasonOf(error)}`);
  }
  const unlock = await lockFolder(out, LOCK_FILE);
  try {
    return await runLocked(options, deps, now);
  } finally {
    await unlock();
  }
}

async function runLocked(
  options: ExportOptions,
  deps: ExportRunDeps,
  now: () => Date,
): Promise<ExportSummary> {
  const { progress } = deps;
  const out = options.out;
  let ids: string[] | null = null;
  if (options.idsFile) {
    try {
      ids = parseIdList(await readFile(options.idsFile, 'utf8'));
    } catch (error) {
      throw new ExportFatalError(`cannot read --ids ${options.idsFile}: ${reasonOf(error)}`);
    }
  }
  let state: ExportState;
  try {
    state = await loadState(out);
  } catch (error) {
    if (!options.force) throw new ExportFatalError(reasonOf(error));
    state = emptyState();
  }
  const writer = createStateWriter(out, state);

  if (options.round !== null && !(await findRound(deps.db, options.round))) {
    throw new ExportFatalError(
      `There is no admission round with the code "${options.round}". See them with: npm run cli -- rounds list`,
    );
  }
  const { applications, unmatched } = await selectApplications(deps.db, {
    status: options.status,
    round: options.round,
    since: options.since,
    until: options.until,
    ids,
  });

  const pdfDir = options.zip ? path.join(out, PDF_CACHE_DIR) : out;
  await mkdir(pdfDir, { recursive: true });
  await removeTemporaryFiles(out);
  await removeTemporaryFiles(pdfDir);
  // Loaded here, not with the module: the server bundles this file, and the namer's
  // transliteration table (~0.5 MB) is not worth parsing at every start of the server.
  const { applicationPdfFileName } = await import('@admissions/answer-view/file-name');
  const targetOf = (app: SelectedApplication) =>
    path
      .relative(out, path.join(pdfDir, applicationPdfFileName(app.nameAnswers, app.id)))
      .split(path.sep)
      .join('/');

  // Unchanged: same content version, and the file is there with the hash we wrote.
  const outcome = new Map<string, 'rendered' | 'unchanged'>();
  const toRender: SelectedApplication[] = [];
  for (const app of applications) {
    const entry = state.applications[app.id];
    const target = targetOf(app);
    if (!options.force && entry && entry.version === app.version && OWN_FILE.test(entry.file)) {
      if ((await hashOf(path.join(out, entry.file))) === entry.sha256) {
        if (entry.file !== target) {
          // The same PDF, moved between loose and --zip layouts (or renamed): no need to render.
          await rename(path.join(out, entry.file), path.join(out, target));
          entry.file = target;
          await writer.save();
        }
        outcome.set(app.id, 'unchanged');
        continue;
      }
    }
    toRender.push(app);
  }

  const failures = new Map<string, ExportFailure>();
  if (applications.length > 0 && toRender.length < applications.length) {
    progress.note(
      `${applications.length - toRender.length} of ${applications.length} unchanged since the last export`,
    );
  }
  progress.start(toRender.length);
  let next = 0;
  const work = async () => {
    while (!deps.signal?.aborted) {
      const app = toRender[next++];
      if (!app) return;
      try {
        const rendered = await deps.render(app.id);
        const file = targetOf(app);
        await writeFileAtomic(path.join(out, file), rendered.bytes);
        const previous = state.applications[app.id];
        state.applications[app.id] = {
          version: rendered.version,
          file,
          sha256: sha256(rendered.bytes),
          bytes: rendered.bytes.length,
          pages: rendered.pages,
          documents: rendered.documents,
          exportedAt: now().toISOString(),
        };
        await writer.save();
        if (previous && previous.file !== file && OWN_FILE.test(previous.file)) {
          await rm(path.join(out, previous.file), { force: true });
        }
        outcome.set(app.id, 'rendered');
        progress.done({ id: app.id, file: path.basename(file) });
      } catch (error) {
        if (error instanceof RenderCancelledError) continue;
        const reason = reasonOf(error);
        failures.set(app.id, { id: app.id, name: app.name, reason });
        progress.done({ id: app.id, error: reason });
      }
    }
  };
  // In process, two applications in flight per layout slot: while one is laid out in a sandbox
  // child, the next is read from the database and storage and the last one written and hashed
  // here; with one each, the children idled through every read and write. With --queue the
  // workers have their own loops: --concurrency is the number of jobs outstanding.
  const inFlight = options.queue ? options.concurrency : options.concurrency * 2;
  await Promise.all(Array.from({ length: Math.min(inFlight, Math.max(1, toRender.length)) }, work));
  progress.finish();

  const allFailures = [
    ...[...failures.values()],
    ...unmatched.map((u) => ({ id: u.value, name: '', reason: u.reason })),
  ];
  const counts = {
    selected: applications.length,
    rendered: [...outcome.values()].filter((o) => o === 'rendered').length,
    unchanged: [...outcome.values()].filter((o) => o === 'unchanged').length,
    failures: allFailures,
  };
  const interrupted =
    deps.signal?.aborted === true && outcome.size + failures.size < applications.length;
  if (interrupted) {
    // A partial index would look complete to whoever imports it: the last full one stays.
    return { ...counts, interrupted, outputs: [], exitCode: 130 };
  }

  const rows: IndexRow[] = applications.map((app) => {
    const base = {
      id: app.id,
      name: app.name,
      email: app.email,
      submitted_at: app.submittedAt?.toISOString() ?? null,
      status: app.status,
    };
    const failure = failures.get(app.id);
    const entry = state.applications[app.id];
    if (failure || !entry) {
      return {
        ...base,
        file: '',
        pages: null,
        bytes: null,
        sha256: '',
        documents: [],
        export: 'failed',
        error: failure?.reason ?? 'not exported',
      };
    }
    return {
      ...base,
      file: path.basename(entry.file),
      pages: entry.pages,
      bytes: entry.bytes,
      sha256: entry.sha256,
      documents: entry.documents,
      export: outcome.get(app.id) ?? 'unchanged',
      error: '',
    };
  });
  const generatedAt = now();
  const meta: IndexMeta = {
    generated_at: generatedAt.toISOString(),
    selection: {
      status: options.status,
      round: options.round,
      since: options.since?.toISOString().slice(0, 10) ?? null,
      until: options.until
        ? new Date(options.until.getTime() - 1).toISOString().slice(0, 10)
        : null,
      ids_file: options.idsFile,
    },
  };
  const csv = formatIndexCsv(rows);
  const json = formatIndexJson(rows, meta);
  const exported = rows.filter((r) => r.export !== 'failed');
  const fileOf = (row: IndexRow) => path.join(out, state.applications[row.id]!.file);
  const combined = options.combined
    ? () =>
        buildCombinedPdf(
          exported.map((row) => ({
            title: `${row.name || row.email} (${row.id})`,
            read: () => readFile(fileOf(row)),
          })),
        )
    : null;

  const outputs: string[] = [];
  const stamp = `export-${timestamp(generatedAt)}`;
  if (options.zip) {
    const entries: ZipEntry[] = exported.map((row) => ({
      name: row.file,
      read: () => readFile(fileOf(row)),
    }));
    entries.push({ name: 'index.csv', read: async () => Buffer.from(csv), compress: true });
    entries.push({ name: 'index.json', read: async () => Buffer.from(json), compress: true });
    if (combined) entries.push({ name: 'combined.pdf', read: combined });
    const zipFile = await freeName(out, stamp, '.zip');
    progress.note(`Writing ${path.basename(zipFile)} (${exported.length} PDFs)…`);
    await writeZip(zipFile, entries, generatedAt);
    outputs.push(zipFile);
  } else {
    await writeFileAtomic(path.join(out, 'index.csv'), csv);
    await writeFileAtomic(path.join(out, 'index.json'), json);
    outputs.push(path.join(out, 'index.csv'), path.join(out, 'index.json'));
    if (combined) {
      const pdfFile = await freeName(out, stamp, '.pdf');
      progress.note(`Writing ${path.basename(pdfFile)} (${exported.length} applications)…`);
      await writeFileAtomic(pdfFile, await combined());
      outputs.push(pdfFile);
    }
  }
  return {
    ...counts,
    interrupted: false,
    outputs,
    exitCode: exitCodeOf({ interrupted, failures: allFailures }),
  };
}
