// `dist/server.js`, what `npm start` and the image run: loads the server's bundle (dist/server.cjs,
// built from boot/server.ts) with the V8 code cache the build made for it (dist/server.cjs.cache),
// so V8 deserializes the server's JavaScript instead of parsing it at every start (BENCHMARKS.md
// has the start-up figures). Node 20 has no compile cache for modules
// (module.enableCompileCache came in 22), hence a CommonJS bundle run through vm.Script, the one
// API that takes cached data. Without a usable cache (another Node, other V8 flags, none written)
// V8 compiles as usual: slower, never wrong.
//
// `node dist/server.js --write-code-cache` is the build's last step: it compiles the bundle the
// same way, writes the cache and exits without starting anything.
import { fileURLToPath } from 'node:url';
import { delayWasmTierUp } from '../platform/db/wasm-tiering';
import { runBundle, writeCodeCache } from './bundle-runner';

const bundle = fileURLToPath(new URL('./server.cjs', import.meta.url));

// First: V8 accepts a cache only under the flags it was made with (PGlite sets this one again).
delayWasmTierUp();

if (process.argv.includes('--write-code-cache')) writeCodeCache(bundle);
else runBundle(bundle);
