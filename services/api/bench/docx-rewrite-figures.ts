// The docx rewrite (check-docx.ts) timed on its own, as the sandbox child runs it: a ~1 MB
// statement with text, an equation object, a chart and photos. Part of the conversion bench;
// `node --import tsx services/api/bench/docx-rewrite-figures.ts` runs only this part and prints it.
import { pathToFileURL } from 'node:url';
import { rewriteDocx } from '../src/modules/documents/conversion/check-docx';
import { buildLargeStatementDocx } from '../test/support/docx-builder';
import { percentile } from '../../../bench/report';

export interface DocxRewriteFigures {
  bytes: number;
  rewrittenBytes: number;
  p50: number;
  p95: number;
  /** CPU time of one rewrite (this thread), which other processes on the machine do not add to. */
  cpuP50: number;
  cpuP95: number;
  samples: number;
}

export function measureDocxRewrite(samples = 200): DocxRewriteFigures {
  const docx = buildLargeStatementDocx();
  let rewrittenBytes = 0;
  for (let i = 0; i < 20; i++) rewrittenBytes = rewriteDocx(docx).pkg.length;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    rewriteDocx(docx);
    const used = process.cpuUsage(cpuStarted);
    times.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  return {
    bytes: docx.length,
    rewrittenBytes,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    cpuP50: percentile(cpu, 50),
    cpuP95: percentile(cpu, 95),
    samples,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = measureDocxRewrite();
  console.log(
    `docx rewrite, ${(figures.bytes / 1024).toFixed(0)} KiB docx → ${(figures.rewrittenBytes / 1024).toFixed(0)} KiB package: ` +
      `median ${figures.p50.toFixed(1)} ms, p95 ${figures.p95.toFixed(1)} ms over ${figures.samples} ` +
      `(CPU time median ${figures.cpuP50.toFixed(1)} ms, p95 ${figures.cpuP95.toFixed(1)} ms)`,
  );
}
