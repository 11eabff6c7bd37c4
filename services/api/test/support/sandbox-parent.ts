// A parent process for the sandbox test "children die with their parent": it starts a pool of two,
// keeps one child busy in a synchronous loop (so only the kernel's death signal can stop it),
// prints the children's pids and waits to be killed.
import pino from 'pino';
import { createSandboxPool } from '../../src/platform/sandbox/sandbox-pool';

const pool = createSandboxPool({
  size: 2,
  memoryMb: 256,
  cpuMs: 600_000,
  timeoutMs: 600_000,
  recycleAfter: 100,
  logger: pino({ level: 'silent' }),
  tasksModules: [new URL('./sandbox-test-tasks.ts', import.meta.url).pathname],
});
const [a, b] = await Promise.all([pool.run<number>('pid', null), pool.run<number>('pid', null)]);
void pool.run('spin', 600_000).catch(() => undefined);
void pool.run('sleep', 600_000).catch(() => undefined);
process.stdout.write(`${JSON.stringify([a, b])}\n`);
setInterval(() => undefined, 1000);
