import v8 from 'node:v8';

/**
 * PGlite's start runs a great deal of PostgreSQL's WebAssembly once (catalog loading, the
 * extension); at V8's default budget much of that code is recompiled by TurboFan in the background
 * and never run again — ~0.35 s of CPU at every start on a 2-core machine, competing with the start
 * itself. Ten times the budget keeps the optimizing compiler for the code queries keep running
 * (it reaches the budget within the first second of steady use). Takes effect for modules compiled
 * after it; V8 11 (Node 20) names the flag so. The compiled server's loader sets it before anything
 * else, as V8 accepts a code cache only under the flags it was made with (boot/server-loader.ts).
 */
export function delayWasmTierUp(): void {
  v8.setFlagsFromString('--wasm-tiering-budget=18000000');
}
