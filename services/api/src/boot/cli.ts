// `npm run cli -- <command> [--flags]`: the service's command-line tool. It reads the same
// configuration as the server; on the embedded database it goes through a running server's
// socket, and opens the files itself only when no server holds them.
import { parseArgs } from 'node:util';
import pino from 'pino';
import {
  APPLICATION_DEFINITION,
  buildDataDictionary,
  buildExportColumns,
  buildMappingTemplate,
  formatDictionary,
  formatExportColumns,
  formatMappingTemplate,
  type DictionaryFormat,
} from '@admissions/form';
import { ConfigError, loadConfig, type Config } from '../platform/config';
import { migrateDatabase } from '../platform/db/migrate';
import {
  findCliDatabase,
  MissingDatabaseError,
  noteCliDatabase,
  openCliDatabaseAt,
  sayHeldCliDatabaseNote,
} from '../platform/db/command-database';
import { serveWorkerMetrics } from '../platform/http/metrics';
import { createProcessLogger, stopOnSignals } from './process-lifecycle';
import { startServices } from './runtime';
import { loadPartner } from '../platform/partner';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isLookupCategory } from '@admissions/api-contract';
import { CliUsageError, runPrefill, runServiceToken } from './cli/staff-commands';
import { STAFF_USAGE, runStaffCommand } from './cli/staff-area-commands';
import { ROUNDS_USAGE, runRoundsCommand } from './cli/rounds-commands';
import { IMPORT_IDS_USAGE, runImportIds } from './cli/import-ids-command';
import { WEBHOOKS_USAGE, runWebhooksCommand } from './cli/webhooks-commands';
import {
  DATA_EXPORT_USAGE,
  EXPORT_USAGE,
  ExportFatalError,
  ExportUsageError,
  runDataExportCommand,
  runExportCommand,
} from '../modules/export';
import {
  IMPORT_FORMATS,
  ImportFormatError,
  formatImportReport,
  importLookupCsv,
} from '../modules/lookup';

const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                         apply pending database migrations
  worker                          run job workers (e-mail, document conversion) until stopped
  dictionary [--format json|csv] [--columns | --mapping-template [--system NAME]]
                                  print the data dictionary of the application; --columns: the
                                  data export's columns; --mapping-template: every coded key with
                                  its codes, to fill in as a code mapping
  lookup import --category hs_ceeb|college_ceeb|address --file list.csv [--dry-run]
                                  upsert a school or address list by code; prints accepted and
                                  rejected rows (exit code 3 when any row was rejected)
  service-token --email E [--ttl 15m] [--json]
                                  mint a read-only staff token for one applicant (default 15m,
                                  at most 24h) and print it with the print-view and PDF links
  prefill --file answers.json [--ttl 7d] [--json]
                                  store a prefilled answer set (no SSN, alien registration number
                                  or disciplinary answers; at most 90d) and print its /about link

  export --out DIR [--status submitted|started|all] [--since YYYY-MM-DD] [--until YYYY-MM-DD]
         [--ids FILE] [--force] [--zip] [--combined] [--concurrency N] [--queue]
                                  one staff PDF per application plus index.csv and index.json,
                                  incremental (see export --help; exit 2 when some failed)
  export-data --out FILE [--format csv|json|ndjson] [--status S] [--round CODE] [--since TIME]
         [--until TIME] [--incremental] [--map FILE [--system NAME]]
         [--include-sensitive --reason TEXT]
                                  one record per application, the dictionary's columns (see
                                  export-data --help; exit 3 when some records failed)
${STAFF_USAGE}
${ROUNDS_USAGE}
${IMPORT_IDS_USAGE}
${WEBHOOKS_USAGE}

Durations: a number and a unit: s, m, h or d (90s, 15m, 2h, 7d).

Configuration comes from the same environment variables as the server (see README).`;

class UsageError extends Error {}

/** Opens the command's database and says which one on stderr (see noteCliDatabase). */
async function openCliDatabase(config: Config, options: { mustExist: boolean }) {
  const target = await findCliDatabase(config, options);
  noteCliDatabase(target);
  return openCliDatabaseAt(config, target);
}

/** For commands that read or add to an existing application database: never creates one. */
async function openMigratedCliDatabase(config: Config) {
  const database = await openCliDatabase(config, { mustExist: true });
  try {
    await migrateDatabase(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function runMigrate(config: Config): Promise<void> {
  const database = await openCliDatabase(config, { mustExist: false });
  try {
    await migrateDatabase(database);
    console.log(`Migrations applied (${database.driver}).`);
  } finally {
    await database.close();
  }
}

async function runWorker(config: Config): Promise<void> {
  if (!config.databaseUrl) {
    throw new UsageError(
      'Separate worker processes need PostgreSQL (DATABASE_URL); the embedded database runs its worker inside the server.',
    );
  }
  const { logger, logs } = createProcessLogger(config);
  const services = await startServices(config, {
    logger,
    role: 'worker',
    warmConversionPool: true,
    warmPdfRenderer: true,
  });
  const stopMetrics = services.metrics
    ? await serveWorkerMetrics(services.metrics, config, logger)
    : undefined;
  logger.info(services.metrics ? { metricsPort: config.port } : {}, 'worker started');
  stopOnSignals({
    logger,
    budgetMs: config.shutdownTimeoutMs,
    close: async (deadline) => {
      await stopMetrics?.();
      await services.close({ deadline });
    },
    logs,
  });
}

async function runDictionary(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      format: { type: 'string', default: 'json' },
      columns: { type: 'boolean', default: false },
      'mapping-template': { type: 'boolean', default: false },
      system: { type: 'string', default: 'target' },
    },
  });
  const format = values.format;
  if (format !== 'json' && format !== 'csv') throw new UsageError('--format must be json or csv');
  if (values.columns && values['mapping-template']) {
    throw new UsageError('--columns and --mapping-template print different things: choose one');
  }
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(values.system)) {
    throw new UsageError('--system must be letters, digits, - or _');
  }
  const partner = await loadPartner(config);
  const rows = buildDataDictionary(APPLICATION_DEFINITION, partner);
  const text = values.columns
    ? formatExportColumns(buildExportColumns(APPLICATION_DEFINITION, partner), format)
    : values['mapping-template']
      ? formatMappingTemplate(buildMappingTemplate(rows), format, values.system)
      : formatDictionary(rows, format as DictionaryFormat);
  // Wait for the pipe to take it all: process.exit() would cut a large write short.
  await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
}

async function runLookup(config: Config, args: string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'import') throw new UsageError(`Unknown lookup action.\n\n${USAGE}`);
  const { values } = parseArgs({
    args: rest,
    options: {
      category: { type: 'string' },
      file: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
  });
  const category = values.category ?? '';
  if (!isLookupCategory(category)) {
    throw new UsageError('--category must be one of hs_ceeb, college_ceeb, address');
  }
  if (!values.file) throw new UsageError('--file is required (a CSV file)');
  // npm runs the CLI inside services/api; a relative path means where the command was typed.
  const csv = await readFile(path.resolve(config.invokedFrom, values.file), 'utf8');
  const dryRun = values['dry-run'] === true;
  const database = await openCliDatabase(config, { mustExist: false });
  try {
    await migrateDatabase(database);
    const report = await importLookupCsv(database, category, csv, { dryRun });
    process.stdout.write(formatImportReport(report, dryRun));
    return report.rejected.length > 0 ? 3 : 0;
  } catch (error) {
    if (error instanceof ImportFormatError) {
      throw new UsageError(
        `${error.message}\nColumns for ${category}: ${IMPORT_FORMATS[category].columns.join(',')}`,
      );
    }
    throw error;
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const config = loadConfig();
  switch (command) {
    case 'migrate':
      await runMigrate(config);
      return 0;
    case 'worker':
      await runWorker(config);
      return -1;
    case 'dictionary':
      await runDictionary(config, rest);
      return 0;
    case 'lookup':
      return runLookup(config, rest);
    case 'service-token':
      await runServiceToken(config, rest, () => openMigratedCliDatabase(config));
      return 0;
    case 'export':
      if (rest.includes('--help')) {
        console.log(EXPORT_USAGE);
        return 0;
      }
      return runExportCommand(config, rest, {
        stdout: process.stdout,
        stderr: process.stderr,
        cwd: config.invokedFrom,
      });
    case 'export-data':
      if (rest.includes('--help')) {
        console.log(DATA_EXPORT_USAGE);
        return 0;
      }
      return runDataExportCommand(config, rest, {
        stdout: process.stdout,
        stderr: process.stderr,
        cwd: config.invokedFrom,
      });
    case 'prefill':
      await runPrefill(config, rest, () => openMigratedCliDatabase(config));
      return 0;
    case 'staff':
      return runStaffCommand(config, rest, () => openMigratedCliDatabase(config));
    case 'rounds':
      return runRoundsCommand(config, rest, () => openMigratedCliDatabase(config));
    case 'import-ids':
      return runImportIds(config, rest, () => openMigratedCliDatabase(config));
    case 'webhooks':
      return runWebhooksCommand(config, rest, () => openMigratedCliDatabase(config));
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // -1: a long-running command that exits on its own signal.
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    sayHeldCliDatabaseNote();
    if (error instanceof ExportUsageError) {
      console.error(`${error.message}\n\n${error.usage}`);
    } else if (
      error instanceof ConfigError ||
      error instanceof UsageError ||
      error instanceof CliUsageError ||
      error instanceof MissingDatabaseError ||
      error instanceof ExportFatalError ||
      String((error as { code?: unknown } | null)?.code).startsWith('ERR_PARSE_ARGS')
    ) {
      console.error((error as Error).message);
    } else {
      pino({ level: 'error' }).error({ err: error }, 'command failed');
    }
    process.exit(1);
  },
);
