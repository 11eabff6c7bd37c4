// `npm start`: the HTTP server. This entry point loads little on purpose: it reads the
// configuration, closes DATA_DIR and starts opening the embedded database, and only then loads
// the rest of the service (run-server.ts), so that PGlite reads and compiles its WebAssembly while
// Node loads and compiles ours (about a fifth of a start on the embedded default).
import { ConfigError, loadConfig } from '../platform/config';
import { holdSignals } from './held-signals';
import { openPgliteFiles } from '../platform/db/open-pglite';
import { closePrivateDataDir, restrictNewFiles } from '../platform/lib/private-data-dir';

async function main(): Promise<void> {
  // Before anything can be half done (held-signals.ts).
  const held = holdSignals();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Before PGlite writes anything there (startServices does both again, for the worker and tests).
  restrictNewFiles();
  await closePrivateDataDir(config.dataDir);
  const openingPglite = config.databaseUrl ? undefined : openPgliteFiles(config.dataDir);
  // Awaited by startServices; until then a failure must not count as unhandled.
  openingPglite?.catch(() => undefined);
  const { runServer } = await import('./run-server');
  await runServer(config, openingPglite, held);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
