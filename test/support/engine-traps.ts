/**
 * For tests of the recovery path: makes every engine instantiated from now on trap on demand.
 * `trapNext()` turns the next input any engine is fed into the engine's trap input (IN.trap), so
 * the trap happens inside the host's feed, as a real one would. Undone by vi.restoreAllMocks().
 */
import { vi } from 'vitest'
import { IN } from '../../src/shared/messages/engine-frames.ts'

type Exports = { memory: WebAssembly.Memory; inputBuffer(len: number): number; feed(len: number): number }

export function trappableEngines(): { trapNext(): void } {
  let armed = false
  const instantiate = WebAssembly.instantiate.bind(WebAssembly) as (module: WebAssembly.Module, imports?: WebAssembly.Imports) => Promise<WebAssembly.Instance>
  vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (module: WebAssembly.Module, imports?: WebAssembly.Imports) => {
    const instance = await instantiate(module, imports)
    const exports = instance.exports as unknown as Exports
    let input = 0
    const wrapped: WebAssembly.Instance = {
      exports: {
        ...instance.exports,
        inputBuffer: (len: number) => (input = exports.inputBuffer(len)),
        feed: (len: number) => {
          if (armed) {
            armed = false
            new Uint8Array(exports.memory.buffer, input, 1)[0] = IN.trap
          }
          return exports.feed(len)
        },
      },
    }
    return wrapped
  }) as unknown as typeof WebAssembly.instantiate)
  return {
    trapNext: () => {
      armed = true
    },
  }
}
