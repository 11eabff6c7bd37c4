// `npm run cli -- export-data`: wires the data export to the service's configuration (the same
// database, secrets and partner settings as the server), reads the mapping file, reports progress
// and each failed record on stderr, the summary on stdout, and turns the outcome into the exit
// code (data-options.ts: DATA_EXPORT_USAGE).
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { APPLICATION_DEFINITION, buildExportColumns } from '@admissions/form';
import type { Config } from '../../platform/config';
import { loadSecrets } from '../../platform/lib/crypto';
import { loadPartner } from '../../platform/partner';
import { onInterrupts, openExportDatabase, type CommandIo } from './command';
import { MappingFileError, parseCodeMapping, type CodeMapping } from './data-mapping';
import { parseDataExportArgs } from './data-options';
import { runDataExport, type DataExportSummary } from './data-run';
import { dataStateFile } from './data-state';
import { ExportFatalError } from './folder-lock';

function formatSummary(summary: DataExportSummary): string {
  const lines = [
    `${summary.selected} selected: ${summary.written} written, ${summary.unchanged} unchanged, ` +
      `${summary.failed} failed${summary.interrupted ? ' (interrupted)' : ''}`,
  ];
  for (const file of summary.outputs) lines.push(`wrote ${file}`);
  if (summary.interrupted) lines.push('', 'Stopped before the end: no file was written.');
  return `${lines.join('\n')}\n`;
}

async function readMapping(
  file: string,
  system: string | null,
  columns: ReadonlySet<string>,
): Promise<CodeMapping> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ExportFatalError(`cannot read --map ${file}: ${(error as Error).message}`);
  }
  try {
    return parseCodeMapping(text, path.basename(file), system, columns);
  } catch (error) {
    if (error instanceof MappingFileError) throw new ExportFatalError(error.message);
    throw error;
  }
}

export async function runDataExportCommand(
  config: Config,
  args: string[],
  io: CommandIo,
): Promise<number> {
  const options = parseDataExportArgs(args, io.cwd);
  const partner = await loadPartner(config);
  const columns = buildExportColumns(APPLICATION_DEFINITION, partner);
  // The mapping is checked before the database is opened: a typo costs nothing.
  const mapping = options.mapFile
    ? await readMapping(options.mapFile, options.system, new Set(columns.map((c) => c.name)))
    : null;
  // Two connections more than the reads of a page: the audit and the next page's read.
  const database = await openExportDatabase(config, 6, false, io);
  const controller = new AbortController();
  const stopInterrupts = onInterrupts(io, 'Stopped. Nothing was written.', () => {
    controller.abort();
    io.stderr.write(
      'Stopping after this page: nothing will be written (Ctrl-C again to quit now)…\n',
    );
  });
  const startedAt = Date.now();
  try {
    const secrets = await loadSecrets(config.secretKey, config.dataDir);
    const summary = await runDataExport(
      {
        out: options.out,
        format: options.format,
        selection: { ...options, ids: null },
        incremental: options.incremental,
        mapping,
        sensitive: options.includeSensitive
          ? {
              reason: options.reason!,
              // Groups the run's audit rows, as a staff export's download does.
              tokenId: `cli-export-data:${randomBytes(6).toString('base64url')}`,
            }
          : null,
        stateFile: dataStateFile(path.dirname(options.out), mapping?.system ?? null),
      },
      {
        db: database.db,
        partner,
        encryptionKey: secrets.encryptionKey,
        signal: controller.signal,
        onFailure: (f) => io.stderr.write(`failed ${f.applicationId}: ${f.message}\n`),
        onProgress: (done, total) => {
          const seconds = (Date.now() - startedAt) / 1000;
          const rate = seconds > 0 ? Math.round(done / seconds) : 0;
          io.stderr.write(
            io.stderr.isTTY
              ? `\r\x1b[2KExporting ${done}/${total} · ${rate}/s`
              : `[${done}/${total}] ${rate} records/s\n`,
          );
        },
      },
    );
    if (io.stderr.isTTY) io.stderr.write('\n');
    await new Promise<void>((resolve) => io.stdout.write(formatSummary(summary), () => resolve()));
    return summary.exitCode;
  } finally {
    stopInterrupts();
    await database.close();
  }
}
