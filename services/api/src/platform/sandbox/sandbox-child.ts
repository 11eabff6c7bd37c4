// A sandbox child: runs the tasks of its registry modules (argv[2…]), one at a time, for the pool
// in the parent process (sandbox-pool.ts). It keeps nothing between tasks on purpose.
import { pathToFileURL } from 'node:url';
import { serializeError } from './serialized-error';

export type SandboxTask = (input: never) => unknown;

interface TaskMessage {
  id: number;
  task: string;
  input: unknown;
}

const send = process.send?.bind(process);
if (!send) throw new Error('sandbox-child.ts runs only as a child of the sandbox pool');

// Ctrl-C in a terminal signals the whole process group, and a service manager may signal every
// process of the service: the parent decides when a child ends (it lets running tasks finish on
// a graceful stop, then closes the pool), so these are not ours to act on.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);

// Our parent is gone (the IPC channel closed): nothing would read our answers. (setpriv's
// death signal also covers a parent killed while we are busy in a long synchronous task.)
process.on('disconnect', () => process.exit(0));

const registries = process.argv.slice(2);
if (registries.length === 0)
  throw new Error('sandbox-child needs the paths of its task registries');
const SANDBOX_TASKS: Record<string, SandboxTask> = {};
for (const registry of registries) {
  const loaded = (await import(pathToFileURL(registry).href)) as {
    SANDBOX_TASKS: Record<string, SandboxTask>;
  };
  Object.assign(SANDBOX_TASKS, loaded.SANDBOX_TASKS);
}

process.on('message', (message: TaskMessage) => {
  void (async () => {
    try {
      const run = Object.hasOwn(SANDBOX_TASKS, message.task) ? SANDBOX_TASKS[message.task] : null;
      if (!run) throw new Error(`unknown sandbox task ${message.task}`);
      const value = await run(message.input as never);
      send({ id: message.id, ok: true, value });
    } catch (error) {
      send({ id: message.id, ok: false, error: serializeError(error) });
    }
  })();
});

send({ ready: true });
