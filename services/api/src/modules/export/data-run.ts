// One data export run: the selection read a page at a time (data-source.ts), each application
// turned into a record (data-records.ts) and appended to a temporary file in the chosen syntax
// (data-writers.ts), which takes the file's place once complete; then the incremental state.
// Records that fail (a code the mapping does not list) are left out and listed in
// `<file>.errors.csv`; every other record is written. With the identifiers decrypted, each page's
// audit rows are written before the page's records reach the file.
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { APPLICATION_DEFINITION, buildExportColumns, type PartnerConfig } from '@admissions/form';
import type { Db } from '../../platform/db/connect';
import { findRound } from '../rounds';
import { recordServiceReads } from '../service';
import { ExportFatalError, lockFolder, removeTemporaryFiles } from './folder-lock';
import { csvField } from './index-writers';
import type { CodeMapping } from './data-mapping';
import { DATA_EXPORT_RECORDS_FAILED, type DataFormat } from './data-options';
import { createRecordBuilder, type RecordFailure } from './data-records';
import { countSelected, readDataPages, type DataSelection } from './data-source';
import { loadDataState, saveDataState } from './data-state';
import { createRecordFormat, openAtomicFile } from './data-writers';

const LOCK_FILE = '.data-export.lock';
const PAGE_SIZE = 500;
/** Failures kept for the summary; the errors file has them all. */
const FAILURES_KEPT = 100;

export interface DataExportRun {
  /** Absolute path of the data file. */
  out: string;
  format: DataFormat;
  selection: DataSelection;
  incremental: boolean;
  mapping: CodeMapping | null;
  /** Decrypt the identifiers; the audit rows name the reason, the token id and the staff member. */
  sensitive: {
    reason: string;
    tokenId: string;
    staff?: { id: string; email: string };
  } | null;
  /** The incremental state (dataStateFile). */
  stateFile: string;
  pageSize?: number;
}

export interface DataExportDeps {
  db: Db;
  partner: PartnerConfig;
  encryptionKey: Buffer;
  /** Aborted on Ctrl-C: the run stops after the page in hand and writes nothing. */
  signal?: AbortSignal;
  now?: () => Date;
  onProgress?: (done: number, total: number) => void;
  onFailure?: (failure: RecordFailure) => void;
  /** Each record written: its application and the answer keys with a value (a download's audit). */
  onRecord?: (applicationId: string, shownAnswers: string[]) => void;
}

export interface DataExportSummary {
  /** Applications the selection held. */
  selected: number;
  written: number;
  /** Left out as unchanged since the last data export (incremental). */
  unchanged: number;
  /** Records that failed. */
  failed: number;
  /** The first failures (every one is in the errors file). */
  failures: RecordFailure[];
  interrupted: boolean;
  /** The data file, and the errors file when some record failed (absolute paths). */
  outputs: string[];
  exitCode: 0 | typeof DATA_EXPORT_RECORDS_FAILED | 130;
}

export function errorsFileOf(out: string): string {
  return `${out}.errors.csv`;
}

export async function runDataExport(
  run: DataExportRun,
  deps: DataExportDeps,
): Promise<DataExportSummary> {
  const folder = path.dirname(run.out);
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw new ExportFatalError(`cannot create ${folder}: ${(error as Error).message}`);
  }
  const unlock = await lockFolder(folder, LOCK_FILE);
  try {
    await removeTemporaryFiles(folder);
    return await runLocked(run, deps);
  } finally {
    await unlock();
  }
}

async function runLocked(run: DataExportRun, deps: DataExportDeps): Promise<DataExportSummary> {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  if (run.selection.round !== null && !(await findRound(db, run.selection.round))) {
    throw new ExportFatalError(
      `There is no admission round with the code "${run.selection.round}". See them with: npm run cli -- rounds list`,
    );
  }
  const state = await loadDataState(run.stateFile);
  // The partner's recommendation settings set the checklist's slots.
  const columns = buildExportColumns(APPLICATION_DEFINITION, deps.partner);
  const build = createRecordBuilder({
    columns,
    partner: deps.partner,
    mapping: run.mapping,
    encryptionKey: run.sensitive ? deps.encryptionKey : null,
  });
  const format = createRecordFormat(
    run.format,
    columns.map((c) => c.name),
  );
  const answerColumns = columns.flatMap((c, i) => (c.source === 'answer' ? [[i, c.name]] : [])) as [
    number,
    string,
  ][];

  const total = await countSelected(db, run.selection);
  const file = await openAtomicFile(run.out);
  const errors = {
    file: null as Awaited<ReturnType<typeof openAtomicFile>> | null,
    async add(failure: RecordFailure) {
      if (!this.file) {
        this.file = await openAtomicFile(errorsFileOf(run.out));
        await this.file.write('application_id,key,value,message\r\n');
      }
      const { applicationId, key, value, message } = failure;
      await this.file.write(`${[applicationId, key, value, message].map(csvField).join(',')}\r\n`);
    },
  };
  const summary: DataExportSummary = {
    selected: 0,
    written: 0,
    unchanged: 0,
    failed: 0,
    failures: [],
    interrupted: false,
    outputs: [],
    exitCode: 0,
  };
  const pages = readDataPages(db, run.selection, {
    pageSize: run.pageSize ?? PAGE_SIZE,
    sensitive: run.sensitive !== null,
    recommendations: deps.partner.recommendations,
    isUnchanged: run.incremental ? (id, version) => state.applications[id] === version : undefined,
  });
  try {
    await file.write(format.start);
    let pending = pages.next();
    for (;;) {
      const next = await pending;
      if (next.done) break;
      // The next page is read while this one is built and written.
      pending = pages.next();
      const page = next.value;
      summary.selected += page.rows.length + page.unchanged;
      summary.unchanged += page.unchanged;
      const records: { id: string; version: number; values: string[]; identifiers: string[] }[] =
        [];
      for (const row of page.rows) {
        const built = build(row, page.checklists.get(row.id));
        if (built.ok) {
          records.push({ id: row.id, version: row.version, ...built });
          continue;
        }
        summary.failed += 1;
        for (const failure of built.failures) {
          if (summary.failures.length < FAILURES_KEPT) summary.failures.push(failure);
          await errors.add(failure);
          deps.onFailure?.(failure);
        }
      }
      if (run.sensitive && records.length > 0) {
        await recordServiceReads(
          db,
          {
            tokenId: run.sensitive.tokenId,
            action: 'sensitive-export',
            ip: null,
            at: now(),
            reason: run.sensitive.reason,
            ...(run.sensitive.staff ? { staff: run.sensitive.staff } : {}),
          },
          records.map((r) => ({
            applicationId: r.id,
            shown: { answers: r.identifiers, documents: [] },
          })),
        );
      }
      for (const record of records) {
        // Buffered by the file: a write waits only when the buffer goes to disk.
        await file.write(format.record(record.values, summary.written === 0));
        summary.written += 1;
        state.applications[record.id] = record.version;
        if (deps.onRecord) {
          deps.onRecord(
            record.id,
            answerColumns.filter(([i]) => record.values[i] !== '').map(([, name]) => name),
          );
        }
      }
      deps.onProgress?.(summary.selected, total);
      if (deps.signal?.aborted) {
        summary.interrupted = true;
        break;
      }
    }
    if (summary.interrupted) {
      // Let the read in flight finish before the database goes away.
      await pending.catch(() => undefined);
      await pages.return(undefined);
      await file.discard();
      await errors.file?.discard();
      return { ...summary, exitCode: 130 };
    }
    await file.write(format.end(summary.written === 0));
    await file.commit();
  } catch (error) {
    await file.discard();
    await errors.file?.discard();
    throw error;
  }
  summary.outputs.push(run.out);
  if (errors.file) {
    await errors.file.commit();
    summary.outputs.push(errorsFileOf(run.out));
  } else {
    await rm(errorsFileOf(run.out), { force: true });
  }
  await saveDataState(run.stateFile, state);
  return { ...summary, exitCode: summary.failed > 0 ? DATA_EXPORT_RECORDS_FAILED : 0 };
}
