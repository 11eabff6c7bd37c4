// Exports from the staff area: the CLI's export run (export/run.ts) with the pg-boss renderer
// (export-application-pdf jobs, run by the worker in this process or by `cli -- worker`), in the
// exporter's own folder, so only what changed since that exporter's last export is rendered
// unless forced. The selection is the list's filters, resolved to ids when the export starts.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  STAFF_EXPORT_MESSAGES,
  STAFF_EXPORT_ROUTES,
  type StaffExportBody,
  type StaffExportResponse,
} from '@admissions/api-contract';
import type { Database } from '../../platform/db/connect';
import { staffExports } from './schema';
import { applications } from '../application';
import type { JobQueue } from '../../platform/queue/job-queue';
import { AppError } from '../../platform/lib/app-error';
import type { Clock } from '../../platform/lib/clock';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { createQueueRenderer } from '../export';
import type { Progress } from '../export';
import { runExport } from '../export';
import { buildStaffFilters } from './staff-list';

export interface StaffExportDeps {
  dataDir: string;
  database: Database;
  queue: JobQueue;
  storage: StorageDriver;
  clock: Clock;
  logger: Logger;
}

type ExportRow = typeof staffExports.$inferSelect;

function describe(row: ExportRow): StaffExportResponse {
  return {
    id: row.id,
    status: row.status as StaffExportResponse['status'],
    format: row.format as StaffExportResponse['format'],
    selected: row.selected,
    done: row.done,
    rendered: row.rendered,
    unchanged: row.unchanged,
    failed: row.failed,
    message: row.message,
    download_url:
      row.status === 'completed' ? STAFF_EXPORT_ROUTES.exportDownload.replace(':id', row.id) : '',
  };
}

export function createStaffExports(deps: StaffExportDeps) {
  const { database, clock } = deps;
  const db = database.db;
  const running = new Set<Promise<void>>();

  async function findOwn(staffId: string, id: string): Promise<ExportRow> {
    const [row] = await db
      .select()
      .from(staffExports)
      .where(and(eq(staffExports.id, id), eq(staffExports.staffId, staffId)))
      .limit(1);
    if (!row) throw new AppError(404, 'NOT_FOUND', STAFF_EXPORT_MESSAGES.notFound);
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
    }
  }

  return {
    async start(staffId: string, body: StaffExportBody): Promise<StaffExportResponse> {
      const [busy] = await db
        .select({ id: staffExports.id })
        .from(staffExports)
        .where(and(eq(staffExports.staffId, staffId), eq(staffExports.status, 'running')))
        .limit(1);
      if (busy) throw new AppError(409, 'EXPORT_RUNNING', STAFF_EXPORT_MESSAGES.busy);
      const filters = buildStaffFilters(body.filters);
      if (body.filters.status) filters.push(sql`a.staff_status = ${body.filters.status}`);
      const where = filters.length === 0 ? sql`TRUE` : sql.join(filters, sql` AND `);
      const selection = await db.execute<{ id: string }>(
        sql`SELECT a.user_id AS id FROM ${applications} a WHERE ${where} ORDER BY a.user_id`,
      );
      const ids = selection.rows.map((r) => r.id);
      const [row] = await db
        .insert(staffExports)
        .values({
          staffId,
          format: body.format,
          filters: body.filters as Record<string, string>,
          force: body.force ? 1 : 0,
          status: 'running',
          selected: ids.length,
          createdAt: clock.now(),
        })
        .returning();
      if (!row) throw new Error('export not recorded');
      const out = path.join(deps.dataDir, 'staff-exports', staffId);
      await mkdir(out, { recursive: true });
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
      const rows = await db
        .select()
        .from(staffExports)
        .where(eq(staffExports.staffId, staffId))
        .orderBy(desc(staffExports.createdAt))
        .limit(20);
      return rows.map(describe);
    },

    /** The finished file's path and its download name. */
    async file(staffId: string, id: string): Promise<{ path: string; name: string; type: string }> {
      const row = await findOwn(staffId, id);
      if (row.status !== 'completed' || !row.filePath) {
        throw new AppError(409, 'EXPORT_NOT_READY', STAFF_EXPORT_MESSAGES.notReady);
      }
      return {
        path: row.filePath,
        name: path.basename(row.filePath),
        type: row.format === 'zip' ? 'application/zip' : 'application/pdf',
      };
    },

    /** Waits for exports started by this process (shutdown and tests). */
    async drain(): Promise<void> {
      await Promise.all([...running]);
    },
  };
}

export type StaffExports = ReturnType<typeof createStaffExports>;
