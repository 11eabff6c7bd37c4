// A render thread of the export's pool: lays out one application at a time with the production
// renderer (the same one GET /service/pdf uses) and counts its pages.
import { parentPort } from 'node:worker_threads';
import type { AnswerView, ApplicationCover } from '@admissions/answer-view';
import { renderApplicationPdf } from '../print/pdf-renderer';
import type { PdfDocumentInput } from '../print/render-application';
import { countPdfPages } from './render';

export interface RenderTask {
  id: number;
  view: AnswerView;
  cover: ApplicationCover;
  documents: PdfDocumentInput[];
}

export type RenderReply =
  | { id: number; bytes: Uint8Array; pages: number }
  | { id: number; error: { name: string; message: string } };

const port = parentPort;
if (!port) throw new Error('render-thread.ts runs only as a worker thread');

port.on('message', (task: RenderTask) => {
  void (async () => {
    try {
      const rendered = await renderApplicationPdf(task.view, task.cover, task.documents);
      const pages = await countPdfPages(rendered);
      // A Buffer may sit in a shared pool: transfer only a buffer of our own.
      const bytes =
        rendered.byteOffset === 0 && rendered.byteLength === rendered.buffer.byteLength
          ? rendered
          : rendered.slice();
      port.postMessage({ id: task.id, bytes, pages } satisfies RenderReply, [
        bytes.buffer as ArrayBuffer,
      ]);
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      port.postMessage({
        id: task.id,
        error: { name: e.name, message: e.message },
      } satisfies RenderReply);
    }
  })();
});
