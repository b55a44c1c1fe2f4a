/**
 * Compiling the same small wasm modules once per sandbox instead of at every Python restore
 * (python-interpreter.ts puts this in place of `WebAssembly.Module` while a restore runs).
 */

/** The largest module compileOnce keeps: Emscripten's function wrappers are tens of bytes. */
const COMPILED_KEPT_MAX_BYTES = 4096

/**
 * `WebAssembly.Module` for one restore, compiling each small module once per sandbox. At every
 * start Emscripten compiles a tiny module for each JS function it puts in the wasm table
 * (convertJsFunctionToWasm), the same bytes each time; compiled afresh, they were about a quarter
 * of a warm `python3 -c`. A module holds no state (each interpreter instantiates its own), so
 * one compiled module serves them all.
 */
export function compileOnce(compiled: Map<string, WebAssembly.Module>, Real: typeof WebAssembly.Module): typeof WebAssembly.Module {
  function Module(bytes: BufferSource): WebAssembly.Module {
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes)
    if (view.byteLength > COMPILED_KEPT_MAX_BYTES) return new Real(bytes)
    const key = String.fromCharCode(...view)
    let module = compiled.get(key)
    if (!module) compiled.set(key, (module = new Real(bytes)))
    return module
  }
  // `instanceof WebAssembly.Module` and its static functions work as before.
  Module.prototype = Real.prototype
  Object.setPrototypeOf(Module, Real)
  return Module as unknown as typeof WebAssembly.Module
}
