// Exports from the staff area: the CLI's export run (export/run.ts) with the pg-boss renderer
// (export-application-pdf jobs, run by the worker in this process or by `cli -- worker`), or the
// CLI's data export run (export/data-run.ts, in this process: it only reads the database), in the
// exporter's own folder, so only what changed since that exporter's last export of that kind is
// rendered or written unless forced. The selection is the list's filters, resolved to ids when
// the export starts. Each download writes one service_audit row per application in the file,
// naming the exporter; a data export with the identifiers decrypted also writes one
// ('sensitive-export', with the reason) per application as it is written. The file is deleted
// after STAFF_EXPORT_RETENTION_DAYS.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, gte, isNull, lt, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  isDataExportFormat,
  STAFF_EXPORT_DEFAULT_STATUS,
  STAFF_EXPORT_MESSAGES,
  checkExportReason,
  STAFF_EXPORT_RETENTION_DAYS,
  STAFF_EXPORT_ROUTES,
  type StaffExportBody,
  type StaffExportResponse,
} from '@admissions/api-contract';
import type { PartnerConfig } from '@admissions/form';
import type { Database } from '../../platform/db/connect';
import { staffExports } from './schema';
import { applications } from '../application';
import type { JobQueue } from '../../platform/queue/job-queue';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { createQueueRenderer, dataStateFile, runDataExport } from '../export';
import type { Progress } from '../export';
import { runExport } from '../export';
import { recordServiceReads } from '../service';
import { buildPrintView, listShownKeys, readApplicationSnapshot } from '../print';
import { buildStaffFilters } from './staff-list';

export const STAFF_EXPORT_RETENTION_MS = STAFF_EXPORT_RETENTION_DAYS * 24 * 60 * 60 * 1000;
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** What the finished file holds, per application, for the audit rows its downloads write. */
interface ExportAuditFile {
  applications: { applicationId: string; shown: { answers: string[]; documents: string[] } }[];
}

const auditFileOf = (file: string) => `${file}.audit.json`;

const CONTENT_TYPES: Record<string, string> = {
  zip: 'application/zip',
  combined: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  ndjson: 'application/x-ndjson',
};

/** What a data export was asked to include: the identifiers, and why. */
interface SensitiveRequest {
  reason: string;
  staff: { id: string; email: string };
}

export interface StaffExportDeps {
  dataDir: string;
  database: Database;
  queue: JobQueue;
  storage: StorageDriver;
  clock: Clock;
  logger: Logger;
  partner: PartnerConfig;
  encryptionKey: Buffer;
}

type ExportRow = typeof staffExports.$inferSelect;

function describe(row: ExportRow): StaffExportResponse {
  return {
    id: row.id,
    status: row.status as StaffExportResponse['status'],
    format: row.format as StaffExportResponse['format'],
    include_sensitive: row.includeSensitive,
    selected: row.selected,
    done: row.done,
    rendered: row.rendered,
    unchanged: row.unchanged,
    failed: row.failed,
    message: row.message,
    filters: row.filters,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
    download_url:
      row.status === 'completed' ? STAFF_EXPORT_ROUTES.exportDownload.replace(':id', row.id) : '',
  };
}

export function createStaffExports(deps: StaffExportDeps) {
  const { database, clock } = deps;
  const db = database.db;
  const running = new Set<Promise<void>>();
  let sweeper: NodeJS.Timeout | null = null;

  async function findOwn(staffId: string, id: string): Promise<ExportRow> {
    const [row] = await db
      .select()
      .from(staffExports)
      .where(and(eq(staffExports.id, id), eq(staffExports.staffId, staffId)))
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND', STAFF_EXPORT_MESSAGES.notFound);
    return row;
  }

  async function run(row: ExportRow, out: string, idsFile: string): Promise<void> {
    const update = (set: Partial<ExportRow>) =>
      db.update(staffExports).set(set).where(eq(staffExports.id, row.id));
    const progress: Progress = {
      start: () => undefined,
      done: (event) => {
        void db
          .update(staffExports)
          .set(
            event.error
              ? { done: sql`${staffExports.done} + 1`, failed: sql`${staffExports.failed} + 1` }
              : { done: sql`${staffExports.done} + 1` },
          )
          .where(eq(staffExports.id, row.id))
          .catch(() => undefined);
      },
      note: () => undefined,
      finish: () => undefined,
    };
    try {
      const summary = await runExport(
        {
          out,
          status: 'all',
          // The ids file holds the selection, round filter included (buildStaffFilters).
          round: null,
          since: null,
          until: null,
          idsFile,
          force: row.force === 1,
          zip: row.format === 'zip',
          combined: row.format === 'combined',
          concurrency: 4,
          queue: true,
        },
        {
          db,
          render: createQueueRenderer({ queue: deps.queue, storage: deps.storage }),
          progress,
          now: () => clock.now(),
        },
      );
      const file = summary.outputs.find((f) => f.endsWith(row.format === 'zip' ? '.zip' : '.pdf'));
      if (file) await writeAuditFile(file, idsFile, new Set(summary.failures.map((f) => f.id)));
      await update({
        status: file ? 'completed' : 'failed',
        done: summary.selected,
        rendered: summary.rendered,
        unchanged: summary.unchanged,
        failed: summary.failures.length,
        message: summary.failures.map((f) => `${f.name || f.id}: ${f.reason}`).join('\n'),
        filePath: file ?? null,
        finishedAt: clock.now(),
      });
    } catch (error) {
      deps.logger.error({ err: error, exportId: row.id }, 'staff export failed');
      await update({
        status: 'failed',
        message: 'The export failed. Please try again.',
        finishedAt: clock.now(),
      }).catch(() => undefined);
    } finally {
      await rm(idsFile, { force: true });
    }
  }

  /**
   * A data export: the selected applications (changed since this exporter's last data export,
   * unless forced) as one file in the exporter's folder, with the list of what each record shows
   * for the download's audit written beside it.
   */
  async function runData(
    row: ExportRow,
    out: string,
    ids: string[],
    sensitive: SensitiveRequest | null,
  ): Promise<void> {
    const update = (set: Partial<ExportRow>) =>
      db.update(staffExports).set(set).where(eq(staffExports.id, row.id));
    const format = row.format;
    if (!isDataExportFormat(format)) throw new Error(`not a data export: ${format}`);
    try {
      const stamp = clock
        .now()
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
      const file = path.join(out, `data-export-${stamp}-${row.id.slice(0, 8)}.${format}`);
      const audit: ExportAuditFile = { applications: [] };
      const summary = await runDataExport(
        {
          out: file,
          format,
          // The ids hold the selection (buildStaffFilters), in submission order.
          selection: { status: 'all', round: null, since: null, until: null, ids },
          incremental: row.force !== 1,
          mapping: null,
          sensitive: sensitive
            ? { reason: sensitive.reason, tokenId: `export:${row.id}`, staff: sensitive.staff }
            : null,
          stateFile: dataStateFile(out, null),
        },
        {
          db,
          partner: deps.partner,
          encryptionKey: deps.encryptionKey,
          now: () => clock.now(),
          onProgress: (done) => {
            void update({ done }).catch(() => undefined);
          },
          onRecord: (applicationId, answers) =>
            audit.applications.push({ applicationId, shown: { answers, documents: [] } }),
        },
      );
      await writeFile(auditFileOf(file), JSON.stringify(audit));
      await update({
        status: 'completed',
        done: summary.selected,
        rendered: summary.written,
        unchanged: summary.unchanged,
        failed: summary.failed,
        message: summary.failures.map((f) => `${f.applicationId}: ${f.message}`).join('\n'),
        filePath: file,
        finishedAt: clock.now(),
      });
    } catch (error) {
      deps.logger.error({ err: error, exportId: row.id }, 'staff export failed');
      await update({
        status: 'failed',
        message: 'The export failed. Please try again.',
        finishedAt: clock.now(),
      }).catch(() => undefined);
    }
  }

  /**
   * Lists what the file shows of each application (keys, never values), read once here in the
   * background rather than on every download.
   */
  async function writeAuditFile(file: string, idsFile: string, failed: Set<string>) {
    const ids = (await readFile(idsFile, 'utf8')).split('\n').filter((id) => id && !failed.has(id));
    const audit: ExportAuditFile = { applications: [] };
    for (const applicationId of ids) {
      const snapshot = await readApplicationSnapshot(db, deps.encryptionKey, applicationId);
      if (!snapshot) continue;
      const view = buildPrintView(snapshot, deps.partner, 'service');
      audit.applications.push({ applicationId, shown: listShownKeys(view) });
    }
    await writeFile(auditFileOf(file), JSON.stringify(audit));
  }

  /** Deletes the files of exports finished more than the retention period ago. */
  async function removeExpired(): Promise<number> {
    const before = new Date(clock.now().getTime() - STAFF_EXPORT_RETENTION_MS);
    const old = await db
      .select()
      .from(staffExports)
      .where(and(eq(staffExports.status, 'completed'), lt(staffExports.finishedAt, before)));
    for (const row of old) {
      if (row.filePath) {
        await rm(row.filePath, { force: true });
        await rm(auditFileOf(row.filePath), { force: true });
      }
      await db
        .update(staffExports)
        .set({ status: 'expired', filePath: null, message: STAFF_EXPORT_MESSAGES.expired })
        .where(eq(staffExports.id, row.id));
    }
    await removeIdleFolders(before);
    return old.length;
  }

  /**
   * An exporter's folder holds, besides the files, every application PDF rendered for them and the
   * state that lets the next export render only what changed. Once nothing of theirs is running
   * or was finished within the retention period, all of it goes: the next export renders afresh.
   */
  async function removeIdleFolders(before: Date): Promise<void> {
    const root = path.join(deps.dataDir, 'staff-exports');
    const folders = await readdir(root).catch(() => [] as string[]);
    for (const staffId of folders) {
      const [recent] = await db
        .select({ id: staffExports.id })
        .from(staffExports)
        .where(
          and(
            sql`${staffExports.staffId}::text = ${staffId}`,
            or(
              eq(staffExports.status, 'running'),
              isNull(staffExports.finishedAt),
              gte(staffExports.finishedAt, before),
            ),
          ),
        )
        .limit(1);
      if (!recent) await rm(path.join(root, staffId), { recursive: true, force: true });
    }
  }

  return {
    removeExpired,

    async start(
      staff: { id: string; email: string },
      body: StaffExportBody,
    ): Promise<StaffExportResponse> {
      const staffId = staff.id;
      const isData = isDataExportFormat(body.format);
      if (body.include_sensitive && !isData) {
        throw new AppError('INVALID_REQUEST', STAFF_EXPORT_MESSAGES.sensitiveDataOnly);
      }
      const checked = body.include_sensitive ? checkExportReason(body.reason) : null;
      if (checked && !checked.ok) throw new AppError('INVALID_REQUEST', checked.message);
      const reason = checked?.ok ? checked.reason : '';
      const busy = () => new AppError('EXPORT_RUNNING', STAFF_EXPORT_MESSAGES.busy);
      // A quick refusal before the selection is read; the insert below is what decides.
      const [active] = await db
        .select({ id: staffExports.id })
        .from(staffExports)
        .where(and(eq(staffExports.staffId, staffId), eq(staffExports.status, 'running')))
        .limit(1);
      if (active) throw busy();
      // Recorded with the status it ran with, so the list of exports says what it took.
      const selected = {
        ...body.filters,
        status: body.filters.status ?? STAFF_EXPORT_DEFAULT_STATUS,
      };
      const filters = buildStaffFilters(selected);
      if (selected.status !== 'all') filters.push(sql`a.staff_status = ${selected.status}`);
      const where = filters.length === 0 ? sql`TRUE` : sql.join(filters, sql` AND `);
      // A data file lists its records in submission order, as the CLI's does.
      const order = isData ? sql`a.submitted_at ASC NULLS LAST, a.id` : sql`a.id`;
      const selection = await db.execute<{ id: string }>(
        sql`SELECT a.id FROM ${applications} a WHERE ${where} ORDER BY ${order}`,
      );
      const ids = selection.rows.map((r) => r.id);
      const [row] = await db
        .insert(staffExports)
        .values({
          staffId,
          format: body.format,
          filters: selected as Record<string, string>,
          force: body.force ? 1 : 0,
          includeSensitive: body.include_sensitive === true,
          status: 'running',
          selected: ids.length,
          createdAt: clock.now(),
        })
        // staff_exports_one_running: of concurrent starts, exactly one inserts its row.
        .onConflictDoNothing()
        .returning();
      if (!row) throw busy();
      const out = path.join(deps.dataDir, 'staff-exports', staffId);
      await mkdir(out, { recursive: true });
      if (isData) {
        const sensitive = body.include_sensitive ? { reason, staff } : null;
        const job = runData(row, out, ids, sensitive).finally(() => running.delete(job));
        running.add(job);
        return describe(row);
      }
      const idsFile = path.join(out, `.selection-${row.id}.txt`);
      await writeFile(idsFile, ids.map((id) => `${id}\n`).join(''));
      const job = run(row, out, idsFile).finally(() => running.delete(job));
      running.add(job);
      return describe(row);
    },

    async status(staffId: string, id: string): Promise<StaffExportResponse> {
      return describe(await findOwn(staffId, id));
    },

    async list(staffId: string): Promise<StaffExportResponse[]> {
      // The page never offers a file the hourly sweep has not got to yet.
      await removeExpired();
      const rows = await db
        .select()
        .from(staffExports)
        .where(eq(staffExports.staffId, staffId))
        .orderBy(desc(staffExports.createdAt))
        .limit(20);
      return rows.map(describe);
    },

    /**
     * The finished file's path and its download name, after writing one service_audit row per
     * application in it (token id `export:<export id>:<random>`, so one download's rows group).
     */
    async file(
      staff: { id: string; email: string },
      id: string,
      ip: string | null,
    ): Promise<{ path: string; name: string; type: string }> {
      const row = await findOwn(staff.id, id);
      if (row.status === 'expired') {
        throw new AppError('EXPORT_EXPIRED', STAFF_EXPORT_MESSAGES.expired);
      }
      if (row.status !== 'completed' || !row.filePath) {
        throw new AppError('EXPORT_NOT_READY', STAFF_EXPORT_MESSAGES.notReady);
      }
      let audit: ExportAuditFile;
      try {
        audit = JSON.parse(await readFile(auditFileOf(row.filePath), 'utf8')) as ExportAuditFile;
      } catch {
        // Finished by a version that did not list its applications: a download that cannot be
        // audited is refused.
        throw new AppError('EXPORT_UNAUDITED', STAFF_EXPORT_MESSAGES.unaudited);
      }
      await recordServiceReads(
        db,
        {
          tokenId: `export:${row.id}:${randomBytes(6).toString('base64url')}`,
          action: isDataExportFormat(row.format) ? 'data-export' : 'pdf',
          ip,
          at: clock.now(),
          staff,
        },
        // An export finished before rounds listed its applicants' ids (`userId`), which are
        // their applications' ids since migration 0014.
        audit.applications.map((a) => {
          const listed = a as Partial<ExportAuditFile['applications'][number]> & {
            userId?: string;
          };
          return { applicationId: listed.applicationId ?? listed.userId ?? '', shown: a.shown };
        }),
      );
      return {
        path: row.filePath,
        name: path.basename(row.filePath),
        type: CONTENT_TYPES[row.format] ?? 'application/octet-stream',
      };
    },

    /**
     * At start: an export still 'running' belonged to a server that stopped (exports run in the
     * process that started them), so nothing will ever finish it.
     */
    async recoverInterrupted(): Promise<number> {
      const rows = await db
        .update(staffExports)
        .set({
          status: 'failed',
          message: STAFF_EXPORT_MESSAGES.interrupted,
          finishedAt: clock.now(),
        })
        .where(eq(staffExports.status, 'running'))
        .returning({ id: staffExports.id });
      if (rows.length > 0) deps.logger.warn({ count: rows.length }, 'staff exports interrupted');
      return rows.length;
    },

    /** Runs removeExpired now and then hourly until drain(). */
    startSweeper(): void {
      const sweep = () =>
        void removeExpired().catch((error: unknown) =>
          deps.logger.error({ err: error }, 'removing expired staff exports failed'),
        );
      sweep();
      sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
      sweeper.unref();
    },

    /** Waits for exports started by this process (shutdown and tests). */
    async drain(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = null;
      await Promise.all([...running]);
    },
  };
}

export type StaffExports = ReturnType<typeof createStaffExports>;
