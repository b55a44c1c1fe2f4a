/**
 * Decoding a resumed session is most of what the engine does for a resume (~25-50 ms for 1,000
 * turns). The engine worker's start-up reads (worker-start-reads.ts) have the session's bytes before the
 * page has sent the engine's boot options, so the worker compiles engine.wasm itself, instantiates
 * an engine and has it decode them (EngineInstance.decodeSession) while the page is still getting
 * ready; the host loop then boots that engine and restores what it holds.
 */
import { instantiateEngine, type EngineInstance } from './engine-instance.ts'

/**
 * An engine that has decoded `bytes`, or null when it could not be made (the host loop then makes
 * its own and decodes them itself). Runs in a task of its own, after whatever is answering now.
 */
export async function decodeAhead(module: Promise<WebAssembly.Module>, bytes: Uint8Array): Promise<EngineInstance | null> {
  try {
    const engine = await instantiateEngine(await module)
    await new Promise((resolve) => setTimeout(resolve, 0))
    engine.decodeSession(bytes)
    return engine
  } catch {
    return null
  }
}
