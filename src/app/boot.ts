/**
 * The page's first script, kept tiny: it starts the engine worker, the engine.wasm compile and
 * the IndexedDB probe (early-start.ts) before the terminal's code (xterm.js and the rest, ~100 KB
 * gzip) has downloaded, then loads that code. Worker start-up and wasm compilation run in
 * parallel with it instead of after it.
 */
import './early-start.ts'

await import('./main.ts')
