// The server's log stream at exit (src/platform/logging/server-log-destination.ts): stopOnSignals
// logs 'stopped', flushes, then exits. The flush used to return while a write was still in flight
// with lines queued behind it, so exit dropped them — seen as a server stopped right after start
// (LibreOffice and the PDF renderer logging their 'closed' errors) whose output ended without
// 'stopped'. Here a process queues a burst of lines, then its last one, flushes and exits.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const apiDir = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(os.tmpdir(), 'log-destination-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runExitingProcess(format: 'json' | 'text'): string {
  const script = path.join(dir, `exit-${format}.mts`);
  writeFileSync(
    script,
    `import { createProcessLogger } from ${JSON.stringify(path.join(apiDir, 'src/boot/process-lifecycle.ts'))};
const { logger, logs } = createProcessLogger({ logLevel: 'info', logFormat: ${JSON.stringify(format)} });
for (let i = 0; i < 2000; i++) logger.error({ detail: 'x'.repeat(1000), i }, 'the sandbox pool is closed');
logger.info('stopped');
await logs.flush(5000);
logs.abandon();
process.exit(0);
`,
  );
  const outFile = path.join(dir, `out-${format}.log`);
  const out = openSync(outFile, 'w');
  try {
    const result = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: apiDir,
      stdio: ['ignore', out, 'inherit'],
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
  } finally {
    closeSync(out);
  }
  return readFileSync(outFile, 'utf8');
}

describe('log stream at exit', () => {
  it.each(['json', 'text'] as const)(
    'LOG_FORMAT=%s: every line logged before the flush is written, the last one included',
    (format) => {
      const lines = runExitingProcess(format)
        .split('\n')
        .filter((line) => line.trim() !== '');
      expect(lines).toHaveLength(2001);
      expect(lines.at(-1)).toMatch(/stopped/);
    },
    120_000,
  );
});
