// A sandbox child: runs the tasks of one registry module (argv[2]), one at a time, for the pool
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

const registry = process.argv[2];
if (!registry) throw new Error('sandbox-child.ts needs the path of a task registry');
const { SANDBOX_TASKS } = (await import(pathToFileURL(registry).href)) as {
  SANDBOX_TASKS: Record<string, SandboxTask>;
};

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
