// Median time to validate a complete application; the SPA runs this on every change while the
// status is validating, so it must stay well under a frame (target < 1 ms).
import { performance } from 'node:perf_hooks';
import { formatMs, percentile, reportBench } from '../../../bench/report';
import { APPLICATION_DEFINITION, validateAnswers } from '../src';
import { COMPLETE_ANSWERS, NOW } from '../test/fixtures/complete-answers';

const WARMUP = 500;
const RUNS = 5000;

function time(): number {
  const start = performance.now();
  validateAnswers(APPLICATION_DEFINITION, COMPLETE_ANSWERS, { now: NOW });
  return performance.now() - start;
}

for (let i = 0; i < WARMUP; i += 1) time();
const samples = Array.from({ length: RUNS }, time);
const keys = Object.keys(COMPLETE_ANSWERS).length;

reportBench({
  id: 'engine',
  title: 'Application engine (`packages/form`)',
  command: 'npm run bench -w packages/form',
  description:
    `\`validateAnswers\` on the complete application fixture (${keys} answers), in process, ` +
    `${RUNS.toLocaleString('en-US')} runs after ${WARMUP} warm-up ones. The SPA runs it on every ` +
    'change while a step is being validated, so it must stay well under a frame.',
  tables: [
    {
      columns: ['measure', 'p50', 'p95', 'p99', 'target'],
      rows: [
        [
          '`validateAnswers`, complete application',
          formatMs(percentile(samples, 50)),
          formatMs(percentile(samples, 95)),
          formatMs(percentile(samples, 99)),
          'p50 < 1 ms',
        ],
      ],
    },
  ],
});
