// Median time to validate a complete application; the SPA runs this on every change while the
// status is validating, so it must stay well under a frame (target < 1 ms).
import { performance } from 'node:perf_hooks';
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
const samples = Array.from({ length: RUNS }, time).sort((a, b) => a - b);
const at = (q: number) =>
  samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
const keys = Object.keys(COMPLETE_ANSWERS).length;

console.log(
  `validateAnswers, complete application (${keys} answers), ${RUNS} runs: ` +
    `median ${at(0.5).toFixed(3)} ms, p95 ${at(0.95).toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms (target < 1 ms)`,
);
