// `npm run cli -- export`: wires the export to the service's configuration (the same database,
// storage, secrets and partner settings as the server), prints progress and the summary, and
// turns the outcome into the exit code.
import os from 'node:os';
import pino from 'pino';
import type { Config } from '../../platform/config';
import type { Database } from '../../platform/db/connect';
import { migrateDatabase } from '../../platform/db/migrate';
import {
  findCliDatabase,
  MissingDatabaseError,
  noteCliDatabase,
  openCliDatabaseAt,
  type CliDatabaseTarget,
} from '../../platform/db/command-database';
import { startJobQueue, type JobQueue } from '../../platform/queue/job-queue';
import { systemClock } from '../../platform/lib/clock';
import { loadSecrets } from '../../platform/lib/crypto';
import { loadPartner } from '../../platform/partner';
import { createStorage } from '../../platform/storage/create-storage';
import type { StorageDriver } from '../../platform/storage/storage-driver';
import { createQueueRenderer, EXPORT_QUEUE_DEFINITION } from './export-jobs';
import { ExportUsageError, EXPORT_USAGE, parseExportArgs } from './options';
import { createProgress } from './progress';
import { createApplicationRenderer, type ApplicationRenderer } from './render';
import { createRenderPool, type RenderPool } from './render-pool';
import { ExportFatalError, runExport, type ExportSummary } from './run';

export { ExportFatalError, ExportUsageError, EXPORT_USAGE };

export interface CommandIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Where the person ran the command (relative --out and --ids resolve against it). */
  cwd: string;
}

function formatSummary(summary: ExportSummary): string {
  const lines = [
    `${summary.selected} selected: ${summary.rendered} rendered, ${summary.unchanged} unchanged, ` +
      `${summary.failures.length} failed${summary.interrupted ? ' (interrupted)' : ''}`,
  ];
  for (const file of summary.outputs) lines.push(`wrote ${file}`);
  if (summary.failures.length > 0) {
    lines.push('', 'Failed:');
    for (const f of summary.failures) {
      lines.push(`  ${f.id}${f.name ? ` (${f.name})` : ''}: ${f.reason}`);
    }
  }
  if (summary.interrupted) {
    lines.push(
      '',
      'Stopped before the end: the index was not rewritten. Run the same command to resume.',
    );
  }
  return `${lines.join('\n')}\n`;
}

export async function openExportDatabase(
  config: Config,
  poolSize: number,
  queue: boolean,
  io: Pick<CommandIo, 'stdout' | 'stderr'>,
): Promise<Database> {
  // On the embedded database a running server holds the files: go through its socket. An export
  // never creates a database (a forgotten DATA_DIR would export nothing and say so too late).
  // Only the server runs jobs on the embedded database: nobody would take them.
  const noQueueWorker = new ExportFatalError(
    '--queue needs PostgreSQL (DATABASE_URL) with `npm run cli -- worker` processes, or on the ' +
      'embedded database a running server; run without --queue to render here',
  );
  let target: CliDatabaseTarget;
  try {
    target = await findCliDatabase(config, { mustExist: true });
  } catch (error) {
    if (error instanceof MissingDatabaseError) {
      throw queue ? noQueueWorker : new ExportFatalError(error.message);
    }
    throw error;
  }
  const viaServer = target.viaServer;
  if (queue && !config.databaseUrl && !viaServer) throw noQueueWorker;
  noteCliDatabase(target, io);
  // The server's socket takes a few connections, and PGlite runs one statement at a time.
  const database = await openCliDatabaseAt(config, target, viaServer ? 2 : poolSize);
  try {
    await migrateDatabase(database);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw new ExportFatalError(
      `Cannot reach the database (${database.driver}): ${(error as Error).message}`,
    );
  }
  return database;
}

/**
 * Ctrl-C (or SIGTERM): `first` once; a later press quits at once with exit code 130 after
 * saying `quitMessage`. Answers the function that stops listening.
 */
export function onInterrupts(
  io: Pick<CommandIo, 'stderr'>,
  quitMessage: string,
  first: () => void,
): () => void {
  let firstInterrupt = 0;
  const onInterrupt = () => {
    // Under `npm run` one Ctrl-C arrives several times: from the terminal to the whole process
    // group, and forwarded again by each npm above us. Only a later press means "quit now".
    if (firstInterrupt > 0 && Date.now() - firstInterrupt < 1000) return;
    if (firstInterrupt > 0) {
      io.stderr.write(`\n${quitMessage}\n`);
      process.exit(130);
    }
    firstInterrupt = Date.now();
    first();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  return () => {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  };
}

export async function runExportCommand(
  config: Config,
  args: string[],
  io: CommandIo,
): Promise<number> {
  const cores = Math.max(1, os.availableParallelism());
  const options = parseExportArgs(args, io.cwd, cores);
  const database = await openExportDatabase(
    config,
    Math.min(options.concurrency, 16) + 2,
    options.queue,
    io,
  );
  let storage: StorageDriver | undefined;
  let pool: RenderPool | undefined;
  let queue: JobQueue | undefined;
  const controller = new AbortController();
  const progress = createProgress({
    write: (s) => io.stderr.write(s),
    isTTY: io.stderr.isTTY === true,
  });
  const stopInterrupts = onInterrupts(io, 'Stopped. Run the same command to resume.', () => {
    controller.abort();
    progress.note(
      'Stopping: letting the applications in progress finish (Ctrl-C again to quit now)…',
    );
  });
  try {
    const secrets = await loadSecrets(config.secretKey, config.dataDir);
    storage = await createStorage(config, secrets.hmacKey, systemClock);
    let render: ApplicationRenderer;
    if (options.queue) {
      const logger = pino({ level: 'warn' });
      // This process only sends export jobs and reads their results.
      queue = await startJobQueue(database, logger, { queues: [EXPORT_QUEUE_DEFINITION] });
      render = createQueueRenderer({
        queue,
        storage,
        signal: controller.signal,
        onNote: (message) => progress.note(message),
      });
    } else {
      pool = createRenderPool(Math.min(options.concurrency, cores), config);
      render = createApplicationRenderer(
        {
          db: database.db,
          storage,
          clock: systemClock,
          partner: await loadPartner(config),
          encryptionKey: secrets.encryptionKey,
        },
        pool.render,
      );
    }
    const summary = await runExport(options, {
      db: database.db,
      render,
      progress,
      signal: controller.signal,
    });
    await new Promise<void>((resolve) => io.stdout.write(formatSummary(summary), () => resolve()));
    return summary.exitCode;
  } finally {
    stopInterrupts();
    await pool?.close();
    await queue?.stop({ graceful: false, wait: true, timeout: 5_000 }).catch(() => undefined);
    await storage?.close();
    await database.close();
  }
}
