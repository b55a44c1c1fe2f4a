import { describe, expect, it } from 'vitest'
import { compileOnce } from './compile-once'

/** A module exporting one function `f` that returns `value`: what convertJsFunctionToWasm's wrappers look like in size. */
function constModule(value: number): Uint8Array<ArrayBuffer> {
  // (module (func (export "f") (result i32) i32.const <value>)), value < 64.
  return new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 6, 1, 4, 0, 65, value, 11])
}

/** A valid module over the size kept: `constModule` with a custom section of padding. */
function bigModule(): Uint8Array<ArrayBuffer> {
  const content = [1, 120, ...new Array<number>(5000).fill(0)] // the name "x", then padding
  const size = [(content.length & 0x7f) | 0x80, content.length >> 7] // LEB128, under 16 KiB
  return new Uint8Array([...constModule(1), 0, ...size, ...content])
}

describe('compileOnce', () => {
  it('compiles the same bytes once and gives every caller that module', () => {
    const compiled = new Map<string, WebAssembly.Module>()
    const Module = compileOnce(compiled, WebAssembly.Module)
    const first = new Module(constModule(7))
    const again = new Module(constModule(7).slice()) // equal bytes, another array
    expect(again).toBe(first)
    expect(compiled.size).toBe(1)
    // Each caller still gets an instance of its own, running the module's code.
    const a = new WebAssembly.Instance(first).exports['f'] as () => number
    const b = new WebAssembly.Instance(again).exports['f'] as () => number
    expect([a(), b()]).toEqual([7, 7])
  })

  it('compiles other bytes as another module', () => {
    const Module = compileOnce(new Map(), WebAssembly.Module)
    const seven = new Module(constModule(7))
    const eight = new Module(constModule(8))
    expect(eight).not.toBe(seven)
    expect((new WebAssembly.Instance(eight).exports['f'] as () => number)()).toBe(8)
  })

  it('keeps no large module, and still compiles it', () => {
    const compiled = new Map<string, WebAssembly.Module>()
    const Module = compileOnce(compiled, WebAssembly.Module)
    const bytes = bigModule()
    expect(bytes.byteLength).toBeGreaterThan(4096)
    const one = new Module(bytes)
    expect(new Module(bytes)).not.toBe(one)
    expect(compiled.size).toBe(0)
  })

  it('is a WebAssembly.Module to instanceof and to its static functions', () => {
    const Module = compileOnce(new Map(), WebAssembly.Module)
    const module = new Module(constModule(3))
    expect(module).toBeInstanceOf(WebAssembly.Module)
    expect(module).toBeInstanceOf(Module)
    expect(Module.exports(module)).toEqual([{ name: 'f', kind: 'function' }])
  })

  it('throws on bytes that are not wasm, as WebAssembly.Module does, and keeps nothing', () => {
    const compiled = new Map<string, WebAssembly.Module>()
    const Module = compileOnce(compiled, WebAssembly.Module)
    expect(() => new Module(new Uint8Array([1, 2, 3]))).toThrow(WebAssembly.CompileError)
    expect(compiled.size).toBe(0)
  })
})
