/**
 * Where engine.wasm is, relative to this module: bundlers (Vite, and the library build) see the
 * `new URL(…, import.meta.url)` and ship the file with a URL that works wherever the code is
 * served from, a page in a subfolder or an app that installed fxterm from npm.
 */
export function engineWasmUrl(): string {
  return new URL('../../../public/engine.wasm', import.meta.url).href
}

/** The offline demo's default tape, shipped the same way. */
export function demoTapeUrl(): string {
  return new URL('../../../public/demos/tour.json', import.meta.url).href
}
