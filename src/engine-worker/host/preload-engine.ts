/**
 * Starts downloading and compiling engine.wasm. Call it as early as possible (before the
 * terminal exists) so compilation overlaps the rest of page start-up; calls with the same URL
 * share one compilation.
 */
import { engineWasmUrl } from './engine-url.ts'
import { markPhase } from '../../shared/start-up-timeline.ts'

const cache = new Map<string, Promise<WebAssembly.Module>>()

export function preloadEngine(url: string = engineWasmUrl()): Promise<WebAssembly.Module> {
  let pending = cache.get(url)
  if (!pending) {
    markPhase('wasm-compile', 'start')
    pending = (async () => {
      const response = await fetch(url)
      if (!response.ok) throw new Error(`engine.wasm could not be loaded from ${url} (HTTP ${response.status})`)
      if (response.headers.get('content-type')?.includes('application/wasm')) return WebAssembly.compileStreaming(response)
      return WebAssembly.compile(await response.arrayBuffer())
    })()
    void pending.then(() => markPhase('wasm-compile', 'end'), () => {})
    cache.set(url, pending)
    pending.catch(() => cache.delete(url))
  }
  return pending
}
