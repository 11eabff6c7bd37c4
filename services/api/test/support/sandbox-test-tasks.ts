// Tasks for the sandbox pool's own tests: each misbehaves in one way a hostile file could make a
// converter misbehave (native memory, JavaScript heap, CPU, time, a crash).
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DocumentRejectedError } from '../../src/modules/documents/conversion/conversion-errors';

const held: unknown[] = [];

export const SANDBOX_TASKS = {
  pid: () => process.pid,
  echo: (input: Uint8Array) => input,
  reject: () => {
    throw new DocumentRejectedError('UNREADABLE', 'from a child');
  },
  /** Native memory, outside the V8 heap (like libvips' pixel buffers). */
  allocateNative: async (mb: number) => {
    for (let i = 0; i < mb; i++) held.push(Buffer.alloc(1024 * 1024, 1));
    await sleep(10_000);
    return held.length;
  },
  /** JavaScript objects in the V8 heap. */
  allocateHeap: () => {
    for (;;) held.push(Array.from({ length: 10_000 }, (_, i) => ({ i })));
  },
  /** CPU in one synchronous stretch: the child's event loop never turns. */
  spin: (ms: number) => {
    const end = Date.now() + ms;
    let n = 0;
    while (Date.now() < end) n++;
    return n;
  },
  sleep: async (ms: number) => {
    await sleep(ms);
    return null;
  },
  /** What a converter does with an applicant's file: writes it to a temporary directory. */
  writeTemp: (bytes: Uint8Array) => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'convert-pdf-')), 'upload.pdf');
    writeFileSync(file, bytes);
    return file;
  },
  crash: () => {
    process.kill(process.pid, 'SIGSEGV');
    return sleep(10_000);
  },
};
