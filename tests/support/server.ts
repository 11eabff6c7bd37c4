import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  outboxDir: string;
  /** Everything the server printed, for failure messages. */
  output: string[];
  stop(): Promise<void>;
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts `services/api` exactly as `npm start` does (it serves apps/web/dist), on a free port with
 * a throwaway DATA_DIR on the embedded defaults (PGlite, outbox mail).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const webDist = path.join(REPO_ROOT, 'apps/web/dist/index.html');
  if (!existsSync(webDist)) {
    throw new Error('apps/web/dist is missing: run `npm run build -w apps/web` first.');
  }
  const port = await findFreePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'admissions-e2e-'));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // The embedded defaults: mail goes to the outbox the test reads.
  delete childEnv.DATABASE_URL;
  delete childEnv.SMTP_URL;
  Object.assign(childEnv, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });

  const output: string[] = [];
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'services/api/src/main.ts'],
    { cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok)
        return { baseUrl, dataDir, outboxDir: path.join(dataDir, 'outbox'), output, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`The server did not become healthy:\n${output.join('')}`);
}
