/**
 * Page side: Pyodide's files, fxterm's own copies (Vite emits each beside the app's assets), by
 * the names the sandbox asks for, and Python's clean memory snapshot, made from them at build
 * time (build-plugins/python-snapshot.ts). Imported when the sandbox first asks, so nothing of
 * Pyodide loads before; the page fetches them and hands them to the sandbox as Blobs, and the
 * sandbox may fetch nothing. `?no-inline`: the library build would otherwise inline them as base64.
 */
export const PYODIDE_ASSETS: Record<string, URL> = {
  'pyodide.mjs': new URL('../../../../node_modules/pyodide/pyodide.mjs?no-inline', import.meta.url),
  'pyodide.asm.mjs': new URL('../../../../node_modules/pyodide/pyodide.asm.mjs?no-inline', import.meta.url),
  'pyodide.asm.wasm': new URL('../../../../node_modules/pyodide/pyodide.asm.wasm?no-inline', import.meta.url),
  'python_stdlib.zip': new URL('../../../../node_modules/pyodide/python_stdlib.zip?no-inline', import.meta.url),
  'pyodide-lock.json': new URL('../../../../node_modules/pyodide/pyodide-lock.json?no-inline', import.meta.url),
  'python-snapshot.bin': new URL('../../../../build/python-snapshot.bin?no-inline', import.meta.url),
}
