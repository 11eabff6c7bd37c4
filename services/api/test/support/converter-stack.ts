// The converter as a worker process runs it — a warm LibreOffice pool, sandbox children and the
// dispatcher — for tests that call it directly; closing it checks that nothing outlives it.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { expect } from 'vitest';
import {
  createDocumentConverter,
  type DocumentConverter,
} from '../../src/modules/documents/conversion/convert-document';
import {
  createOfficePool,
  type OfficePool,
} from '../../src/modules/documents/conversion/libreoffice/office-pool';
import { createSandboxPool, type SandboxPool } from '../../src/platform/sandbox/sandbox-pool';
import { DOCUMENT_SANDBOX_TASKS } from '../../src/modules/documents';
import { processExists } from './pdf-inspect';

export interface ConverterStack {
  pool: OfficePool;
  sandbox: SandboxPool;
  converter: DocumentConverter;
  workDir: string;
  /** Closes both pools and checks that no LibreOffice process, profile or job file is left. */
  close(): Promise<void>;
}

export async function startConverterStack(options: {
  name: string;
  timeoutMs: number;
  recycleAfter: number;
  logger: Logger;
}): Promise<ConverterStack> {
  const { timeoutMs, recycleAfter, logger } = options;
  const workDir = mkdtempSync(path.join(os.tmpdir(), `${options.name}-`));
  const pool = createOfficePool({ size: 1, timeoutMs, recycleAfter, workDir, logger });
  const sandbox = createSandboxPool({
    tasksModules: [DOCUMENT_SANDBOX_TASKS],
    size: 1,
    memoryMb: 768,
    cpuMs: 20_000,
    timeoutMs,
    recycleAfter: 100,
    logger,
  });
  const converter = createDocumentConverter({ pool, sandbox, logger });
  await pool.warm();
  return {
    pool,
    sandbox,
    converter,
    workDir,
    async close() {
      await sandbox.close();
      const pids = pool.pids();
      await pool.close();
      for (const pid of pids) expect(processExists(pid)).toBe(false);
      // No profile, TMPDIR or job file outlives the pool.
      expect(readdirSync(workDir)).toEqual([]);
      rmSync(workDir, { recursive: true, force: true });
    },
  };
}
