// Layout is CPU-bound and Node runs JavaScript on one core, so the in-process export lays out
// applications on a pool of worker threads (one application at a time each) while the main
// thread reads the database and storage and writes files.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PageCountingRenderer } from './render';
import type { RenderReply, RenderTask } from './render-thread';

interface Pending {
  task: RenderTask;
  resolve: (value: { bytes: Uint8Array; pages: number }) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

/** The thread runs TypeScript like the rest of the service: tsx is registered before loading it. */
function bootstrapSource(): string {
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(
    path.join(path.dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs'),
  ).href;
  const thread = new URL('./render-thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(thread)}); })`;
}

export class RenderThreadError extends Error {}

export interface RenderPool {
  render: PageCountingRenderer;
  close(): Promise<void>;
}

export function createRenderPool(size: number): RenderPool {
  const source = bootstrapSource();
  const slots: Slot[] = [];
  const waiting: Pending[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    const slot: Slot = { worker: new Worker(source, { eval: true, execArgv: [] }), busy: null };
    slot.worker.on('message', (reply: RenderReply) => {
      const pending = slot.busy;
      slot.busy = null;
      if (pending && pending.task.id === reply.id) {
        if ('error' in reply) {
          const error = new Error(reply.error.message);
          error.name = reply.error.name;
          pending.reject(error);
        } else {
          pending.resolve({ bytes: new Uint8Array(reply.bytes), pages: reply.pages });
        }
      }
      dispatch();
    });
    const lost = (error: Error) => {
      const pending = slot.busy;
      slot.busy = null;
      const index = slots.indexOf(slot);
      if (index >= 0) slots.splice(index, 1);
      pending?.reject(new RenderThreadError(`render thread stopped: ${error.message}`));
      if (!closed) {
        slots.push(spawn());
        dispatch();
      }
    };
    slot.worker.on('error', lost);
    slot.worker.on('exit', (code) => {
      if (!closed) lost(new Error(`exit code ${code}`));
    });
    return slot;
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (slot.busy) continue;
      const next = waiting.shift();
      if (!next) return;
      slot.busy = next;
      slot.worker.postMessage(next.task);
    }
  };

  for (let i = 0; i < Math.max(1, size); i++) slots.push(spawn());

  return {
    render(view, cover, documents) {
      if (closed) return Promise.reject(new Error('the render pool is closed'));
      return new Promise((resolve, reject) => {
        waiting.push({ task: { id: nextId++, view, cover, documents }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const pending of waiting.splice(0))
        pending.reject(new Error('the render pool is closed'));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
