/**
 * Drives the compiled engine.wasm in Node and reads the screen back through @xterm/headless,
 * exactly as xterm.js in the page would render the same bytes. Deterministic: time is a counter
 * the test moves.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import xtermHeadless from '@xterm/headless'
import { instantiateEngine, type EngineInstance } from '../../src/engine-worker/host/engine-instance.ts'
import type { BootOptions, CatalogAnswer, EngineEffect, SessionEvent, SessionListEntry } from '../../src/shared/messages/engine-frames.ts'
import type { ModelEvent } from '../../src/shared/protocol/model-events.ts'

const { Terminal } = xtermHeadless
const wasmPath = fileURLToPath(new URL('../../public/engine.wasm', import.meta.url))
let compiled: WebAssembly.Module | undefined

export type Harness = Awaited<ReturnType<typeof createHarness>>

/** `beforeBoot` is given the engine before its boot (what a host may feed it then). */
export async function createHarness(boot: Partial<BootOptions> = {}, beforeBoot?: (engine: EngineInstance) => void) {
  compiled ??= new WebAssembly.Module(readFileSync(wasmPath))
  const engine: EngineInstance = await instantiateEngine(compiled)
  beforeBoot?.(engine)
  const cols = boot.cols ?? 80
  const rows = boot.rows ?? 24
  const term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 })
  const effects: EngineEffect[] = []
  /** Catalog requests, kept apart: every boot asks for the active provider's catalog. */
  const catalogRequests: string[] = []
  let now = 1_000_000

  const take = async (list: EngineEffect[]) => {
    for (const e of list) {
      if (e.kind === 'write') await new Promise<void>((resolve) => term.write(e.bytes, resolve))
      // the echo hint rides along with every redraw; tests that care read it from the engine
      else if (e.kind === 'catalog_request') catalogRequests.push(e.provider)
      else if (e.kind !== 'echo_hint') effects.push(e)
    }
    return list
  }

  await take(
    engine.boot(
      { cols, rows, seed: 1, provider: 'demo', model: 'demo', tools: true, cwd: '/workspace', notices: [], args: [], ...boot },
      now,
    ),
  )

  const h = {
    term,
    engine,
    effects,
    catalogRequests,
    /** Answers a catalog request. */
    catalog: (answer: CatalogAnswer) => take(engine.catalog(answer, now)),
    /** A saved session from the host (resume, or the picker's choice). */
    session: (bytes: Uint8Array, readOnly = false) => take(engine.session(bytes, readOnly, now)),
    restoreDecoded: (readOnly = false) => take(engine.restoreDecoded(readOnly, now)),
    sessionList: (entries: SessionListEntry[]) => take(engine.sessionList(entries, now)),
    sessionEvent: (event: SessionEvent) => take(engine.sessionEvent(event, now)),
    configChanged: (id: string, value: string) => take(engine.configChanged(id, value, now)),
    /** What the stores held, after a boot with `restorePending`. */
    restore: (stored: { config: Record<string, string>; history: string[]; instructions?: string; notices: string[] }) => take(engine.restore(stored, now)),
    /** Advances the clock the engine sees. */
    tick(ms: number) {
      now += ms
    },
    type: (text: string) => take(engine.keys(new TextEncoder().encode(text), now)),
    model: (id: number, event: ModelEvent) => take(engine.modelEvent(id, event, now)),
    exec: (id: number, result: { stdout: string; stderr: string; exitCode: number }) => take(engine.execResult(id, result, now)),
    timer: (id: number) => take(engine.timer(id, now)),
    /** A message from the host (`activity`: the activity row's text while a command runs). */
    notice: (text: string, level: 'info' | 'warning' | 'error' | 'plain' | 'activity') => take(engine.notice({ text, level }, now)),
    /** The workspace's answer to a workspace op (file tool, /diff, /undo). */
    workspace: (id: number, answer: unknown) => take(engine.workspaceAnswer(id, answer, now)),
    resize: async (c: number, r: number) => {
      term.resize(c, r)
      return take(engine.resize(c, r, now))
    },
    /** Every line of the buffer (scrollback included), right-trimmed, trailing blanks dropped. */
    screen(): string {
      const buf = term.buffer.active
      const lines: string[] = []
      for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '')
      while (lines.length && lines[lines.length - 1] === '') lines.pop()
      return lines.join('\n')
    },
    /** The visible rows only. */
    viewport(): string[] {
      const buf = term.buffer.active
      const lines: string[] = []
      for (let i = 0; i < term.rows; i++) lines.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '')
      return lines
    },
    cursor() {
      const buf = term.buffer.active
      return { x: buf.cursorX, y: buf.cursorY }
    },
    lastOf<K extends EngineEffect['kind']>(kind: K): Extract<EngineEffect, { kind: K }> | undefined {
      for (let i = effects.length - 1; i >= 0; i--) {
        const e = effects[i]
        if (e?.kind === kind) return e as Extract<EngineEffect, { kind: K }>
      }
      return undefined
    },
    allOf<K extends EngineEffect['kind']>(kind: K): Extract<EngineEffect, { kind: K }>[] {
      return effects.filter((e) => e.kind === kind) as Extract<EngineEffect, { kind: K }>[]
    },
  }
  return h
}
