/**
 * One instantiated engine.wasm. Each call feeds one input frame and returns the effects it
 * produced. A trap (an AssemblyScript abort or a wasm RuntimeError) is thrown as `EngineTrap`;
 * the instance is unusable afterwards and the host loop starts a fresh one.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import {
  type BootProvider,
  IN,
  INPUT_HEADER,
  bootPayload,
  decodeEffects,
  execResultPayload,
  modelEventPayload,
  noticePayload,
  type CatalogAnswer,
  type SessionEvent,
  type SessionListEntry,
  resizePayload,
  writeInputFrame,
  type BootOptions,
  type EngineEffect,
  type HostNotice,
  type AuthDisplayState,
} from '../../shared/messages/engine-frames.ts'

/** The engine trapped: an AssemblyScript abort or a wasm RuntimeError, with its message. */
export class EngineTrap extends FxError {
  declare readonly code: typeof ErrorCode.FX_ENGINE_TRAP
  constructor(message: string) {
    super(ErrorCode.FX_ENGINE_TRAP, message)
    this.name = 'EngineTrap'
  }
}

type EngineExports = {
  memory: WebAssembly.Memory
  inputBuffer(len: number): number
  feed(len: number): number
  outputPtr(): number
}

export type EngineInstance = {
  boot(options: BootOptions, nowMs: number): EngineEffect[]
  keys(bytes: Uint8Array, nowMs: number): EngineEffect[]
  resize(cols: number, rows: number, nowMs: number): EngineEffect[]
  modelEvent(requestId: number, event: ModelEvent, nowMs: number): EngineEffect[]
  execResult(execId: number, result: { stdout: string; stderr: string; exitCode: number; cwd?: string }, nowMs: number): EngineEffect[]
  notice(notice: HostNotice, nowMs: number): EngineEffect[]
  /** A provider's model catalog (the answer to a `catalog_request`). */
  catalog(catalog: CatalogAnswer, nowMs: number): EngineEffect[]
  /** A saved session to restore; `readOnly` when another tab holds it. */
  session(bytes: Uint8Array, readOnly: boolean, nowMs: number): EngineEffect[]
  /** Decodes a session now, even before boot, and holds it for `restoreDecoded`. */
  decodeSession(bytes: Uint8Array): void
  /** Restores the session `decodeSession` held. */
  restoreDecoded(readOnly: boolean, nowMs: number): EngineEffect[]
  sessionList(entries: SessionListEntry[], nowMs: number): EngineEffect[]
  sessionEvent(event: SessionEvent, nowMs: number): EngineEffect[]
  /** A setting another tab changed. */
  configChanged(id: string, value: string, nowMs: number): EngineEffect[]
  timer(timerId: number, nowMs: number): EngineEffect[]
  /** A sign-in or key state to show. */
  auth(state: AuthDisplayState, nowMs: number): EngineEffect[]
  /** What the stores held, after a boot with `restorePending`. */
  restore(stored: { config: Record<string, string>; history: string[]; instructions?: string; notices: string[] }, nowMs: number): EngineEffect[]
  /** The agent API: a prompt, a steer (`AGENT_SUB`), or a cancel (empty text). */
  agent(sub: number, text: string, nowMs: number): EngineEffect[]
  /** A host tool's result text for the call `callId` asked for. */
  toolResult(toolCallId: number, text: string, nowMs: number): EngineEffect[]
  /** The workspace's answer to a workspace op (output frame 24). */
  workspaceAnswer(opId: number, answer: unknown, nowMs: number): EngineEffect[]
  /** Providers added after boot (or changed), with what /provider shows of them. */
  /** Input 20: providers added after boot; `use` names one to switch to (a person just added it). */
  providers(entries: BootProvider[], nowMs: number, use?: string): EngineEffect[]
}

/** Reads an AssemblyScript string (UTF-16, byte length stored just before it). */
function readAsString(memory: WebAssembly.Memory, ptr: number): string {
  if (!ptr) return ''
  const bytes = new Uint32Array(memory.buffer, ptr - 4, 1)[0] ?? 0
  return String.fromCharCode(...new Uint16Array(memory.buffer, ptr, bytes >>> 1))
}

/** Instantiates the engine from a compiled module. */
export async function instantiateEngine(module: WebAssembly.Module): Promise<EngineInstance> {
  let memory: WebAssembly.Memory | undefined
  const imports = {
    env: {
      abort(msg: number, file: number, line: number, col: number): never {
        const where = memory ? `${readAsString(memory, file)}:${line}:${col}` : 'unknown'
        throw new EngineTrap(`${memory ? readAsString(memory, msg) : 'abort'} (${where})`)
      },
    },
  }
  const instance = await WebAssembly.instantiate(module, imports)
  const exports = instance.exports as unknown as EngineExports
  memory = exports.memory

  const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
  const feed = (kind: number, payload: Uint8Array, nowMs: number, id = 0, sub = 0): EngineEffect[] => {
    try {
      const len = INPUT_HEADER + payload.length
      const ptr = exports.inputBuffer(len)
      writeInputFrame(new Uint8Array(exports.memory.buffer, ptr, len), { kind, sub, id, nowMs, payload })
      const outLen = exports.feed(len)
      return decodeEffects(new Uint8Array(exports.memory.buffer, exports.outputPtr(), outLen))
    } catch (error) {
      if (error instanceof EngineTrap) throw error
      throw new EngineTrap(error instanceof Error ? error.message : String(error))
    }
  }

  return {
    boot: (options, nowMs) => feed(IN.boot, bootPayload(options), nowMs),
    keys: (bytes, nowMs) => feed(IN.keys, bytes, nowMs),
    resize: (cols, rows, nowMs) => feed(IN.resize, resizePayload(cols, rows), nowMs),
    modelEvent: (requestId, event, nowMs) => {
      const { sub, payload } = modelEventPayload(event)
      return feed(IN.model, payload, nowMs, requestId, sub)
    },
    execResult: (execId, result, nowMs) => feed(IN.execResult, execResultPayload(result), nowMs, execId),
    timer: (timerId, nowMs) => feed(IN.timer, new Uint8Array(0), nowMs, timerId),
    notice: (notice, nowMs) => feed(IN.notice, noticePayload(notice), nowMs),
    catalog: (catalog, nowMs) => feed(IN.catalog, json(catalog), nowMs),
    session: (bytes, readOnly, nowMs) => feed(IN.session, bytes, nowMs, 0, readOnly ? 1 : 0),
    decodeSession: (bytes) => void feed(IN.sessionDecode, bytes, 0),
    restoreDecoded: (readOnly, nowMs) => feed(IN.session, new Uint8Array(0), nowMs, 0, (readOnly ? 1 : 0) | 2),
    sessionList: (entries, nowMs) => feed(IN.sessionList, json(entries), nowMs),
    sessionEvent: (event, nowMs) => feed(IN.sessionEvent, json(event), nowMs),
    configChanged: (id, value, nowMs) => feed(IN.config, json({ id, value }), nowMs),
    auth: (state, nowMs) => feed(IN.auth, json(state), nowMs),
    restore: (stored, nowMs) => feed(IN.restore, json(stored), nowMs),
    agent: (sub, text, nowMs) => feed(IN.agent, new TextEncoder().encode(text), nowMs, 0, sub),
    toolResult: (toolCallId, text, nowMs) => feed(IN.toolResult, new TextEncoder().encode(text), nowMs, toolCallId),
    workspaceAnswer: (opId, answer, nowMs) => feed(IN.workspace, json(answer), nowMs, opId),
    providers: (entries, nowMs, use) => feed(IN.providers, json({ providers: entries, ...(use ? { use } : {}) }), nowMs),
  }
}
