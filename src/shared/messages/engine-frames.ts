/**
 * The host's side of the engine ABI (wasm/ABI.md): input frame kinds and their encoders, and the
 * decoder for output frames. The numbers are the engine's (wasm/engine/abi/frames.ts):
 * engine-frames.test.ts reads that file and fails on any difference.
 */
import type { ModelEvent, ModelInfo, ModelRequest } from '../protocol/model-events.ts'
import { copyIntoSpare } from '../snapshot-buffers.ts'
import type { WorkspaceOpRequest } from '../protocol/workspace-ops.ts'

export const INPUT_HEADER = 20
export const OUTPUT_HEADER = 12

export const IN = {
  boot: 1,
  keys: 2,
  resize: 3,
  model: 4,
  execResult: 5,
  timer: 6,
  notice: 7,
  catalog: 8,
  session: 9,
  sessionList: 10,
  sessionEvent: 11,
  config: 12,
  auth: 15,
  restore: 16,
  sessionDecode: 17,
  workspace: 19,
  providers: 20,
  agent: 13,
  toolResult: 14,
  trap: 0x7f,
} as const
export const MODEL_SUB = {
  text_delta: 1,
  reasoning_delta: 2,
  tool_call_start: 3,
  tool_call_delta: 4,
  tool_call_end: 5,
  usage: 6,
  finish: 7,
  error: 8,
  refusal_delta: 9,
} as const
export const OUT = {
  write: 1,
  modelRequest: 2,
  modelCancel: 3,
  exec: 4,
  execCancel: 5,
  timerSet: 6,
  timerCancel: 7,
  event: 8,
  exit: 9,
  action: 10,
  clipboard: 11,
  echoHint: 12,
  configSet: 13,
  catalogRequest: 14,
  historyAppend: 15,
  historyClear: 16,
  sessionCommit: 17,
  sessionList: 18,
  sessionOpen: 19,
  sessionRemove: 20,
  auth: 23,
  toolCall: 21,
  toolCancel: 22,
  workspace: 24,
} as const

/** Sub-kinds of the agent API's input frame (IN.agent). */
export const AGENT_SUB = { prompt: 1, steer: 2, cancel: 3 } as const

/** Boot options the engine reads (JSON in the boot frame). */
export type BootOptions = {
  cols: number
  rows: number
  seed: number
  provider: string
  model: string
  tools: boolean
  cwd: string
  notices: string[]
  args: string[]
  /** The workspace's permission: 'prompt' makes the engine ask before every command. */
  permission?: 'allow-sandboxed' | 'prompt'
  /** AGENTS.md text appended to the system prompt (the engine caps the total at 64 KiB). */
  instructions?: string
  /** The workspace's description of run_command. */
  toolDescription?: string
  /** The workspace answers workspace ops: the model gets read_file, write_file and edit_file; /diff and /undo work. */
  fileTools?: boolean
  /** The providers this page offers; `provider` names the active one. */
  providers?: BootProvider[]
  /** Settings restored from the configStore (`model`, `mode`, `provider`, `fast`). */
  config?: Record<string, string>
  /** Model requests allowed per turn (default 100). */
  maxSteps?: number
  /** A session store exists: the engine commits snapshots and offers /resume. */
  sessions?: boolean
  /** Prompt history for this workspace, oldest first. */
  history?: string[]
  /** The provider a sign-in or /key is for (absent: no sign-in on this page). */
  account?: string
  /** Whether /login can sign in (the app gave a client id); absent: true. Without it, the banner leaves /login out. */
  signIn?: boolean
  /** What that provider has now; `none` shows the first-run onboarding row. */
  credential?: 'signed_in' | 'key' | 'env' | 'none'
  /** Settings, history and notices come later, with IN.restore (the stores are still being read). */
  restorePending?: boolean
  /** The agent API: no terminal output and no spinner timer; events and effects only. */
  headless?: boolean
  /** Replaces fxterm's own system prompt (the agent's instructions). */
  systemPrompt?: string
  /** Tools the host runs (the agent API's JS tools); `parameters` is JSON Schema as JSON text. */
  hostTools?: HostToolSpec[]
  /** Reasoning effort sent with every request (`low`, `medium`, `high`; the agent API's model option). */
  effort?: string
}

/** A host tool as the engine offers it to the model. */
export type HostToolSpec = { name: string; description: string; parameters: string; idempotent: boolean }
/** A host tool call the engine asks for (`rerun` when a saved turn runs it again). */
export type HostToolCall = { callId: string; name: string; arguments: string; rerun: boolean }

/**
 * A provider as the engine knows it: `model` its default (empty when only its catalog can tell),
 * `baseUrl` and `key` (`account`, `key` or `not_needed`) for /provider and /key.
 */
export type BootProvider = { name: string; label: string; model: string; baseUrl?: string; key?: 'account' | 'key' | 'optional' | 'not_needed'; added?: boolean; proxy?: boolean }

/** What /login, /logout and /key ask the host to do (output frame 23). */
export type AuthAction = 'login' | 'login_reopen' | 'login_cancel' | 'logout' | 'key' | 'key_clear'
/**
 * A sign-in or key state for the engine to show (input frame 15). Never a token or a key: the
 * verification URL and user code are not secrets, and a key being typed is only its length.
 */
export type AuthDisplayState = { credential?: 'signed_in' | 'key' | 'env' | 'none' } & (
  | { state: 'preparing' | 'cancelled' | 'key_cancelled' }
  /** A key saved for `provider` (the account's, ai-gateway, when absent). */
  | { state: 'key_saved'; provider?: string }
  /** The providers that have a key saved with /key (once after boot, and after each change). */
  | { state: 'keys'; saved: string[] }
  | { state: 'signed_in'; message?: string }
  /** Which credential there is now; `startup` once after boot (may switch to the account provider). */
  | { state: 'credential'; startup?: boolean }
  | { state: 'waiting'; url: string; code: string }
  | { state: 'failed'; message: string }
  | { state: 'signed_out'; message?: string }
  | { state: 'key_cleared'; message?: string; provider?: string }
  | { state: 'key_entry'; length: number }
)

/** A saved session as /resume lists it (read from the snapshot's metadata header). */
export type SessionListEntry = { id: string; updatedAtMs: number; title?: string; turns?: number; firstPrompt?: string }
/** What became of a commit or a request, told back to the engine. */
export type SessionEvent =
  | { type: 'commit_ok' }
  | { type: 'conflict' }
  | { type: 'commit_error'; message: string }
  | { type: 'missing'; id: string }

/** A provider's model catalog, or why it could not be loaded. */
/** `unauthorized`: the server answered 401/403 (a person's server then asks for a key). */
export type CatalogAnswer = { provider: string; models: ModelInfo[]; error?: string; unauthorized?: boolean }

/** Something only the host can do, asked for by a slash command. */
export type HostAction =
  | { action: 'files' }
  /** /a11y: screen-reader mode on or off. */
  | { action: 'a11y_on' }
  | { action: 'a11y_off' }
  | { action: 'download' }
  | { action: 'open' }
  /** Save text the engine produced (/export) as a download. */
  | { action: 'export'; fileName: string; mimeType: string; content: string; tape?: boolean }
  /**
   * /provider add, or a URL typed after the picker's "another server" (`name` empty: the host
   * names it): a server to check, keep and switch to (the engine worker handles it; the page never sees it).
   */
  | { action: 'provider_add'; name: string; baseUrl: string; wire: string }
  /** /provider remove: a server added earlier, forgotten with its key (handled like provider_add). */
  | { action: 'provider_remove'; name: string }
/** `activity`: the activity row's text while the running command lasts, not a transcript line. */
export type HostNotice = { text: string; level: 'info' | 'warning' | 'error' | 'plain' | 'activity' }

export type ExecRequest = { command: string; cwd: string; timeoutMs: number; outputLimitBytes: number; tty?: boolean }

/** What the engine asks the host to do. */
export type EngineEffect =
  | { kind: 'write'; bytes: Uint8Array }
  | { kind: 'model_request'; id: number; request: ModelRequest }
  | { kind: 'model_cancel'; id: number }
  | { kind: 'exec'; id: number; request: ExecRequest }
  | { kind: 'exec_cancel'; id: number }
  | { kind: 'timer_set'; id: number; delayMs: number }
  | { kind: 'timer_cancel'; id: number }
  | { kind: 'event'; event: { type: string } & Record<string, unknown> }
  | { kind: 'exit'; code: number }
  | { kind: 'action'; action: HostAction }
  | { kind: 'clipboard'; text: string }
  | { kind: 'echo_hint'; columns: number }
  | { kind: 'config_set'; id: string; value: string }
  | { kind: 'catalog_request'; provider: string }
  | { kind: 'history_append'; value: string }
  | { kind: 'history_clear' }
  | { kind: 'session_commit'; bytes: Uint8Array }
  | { kind: 'session_list' }
  | { kind: 'session_open'; id: string }
  | { kind: 'session_remove'; id: string }
  /** `provider`: whose key /key and /key clear are about (absent: the account's). */
  | { kind: 'auth'; action: AuthAction; provider?: string }
  | { kind: 'tool_call'; id: number; call: HostToolCall }
  | { kind: 'tool_cancel'; id: number }
  | { kind: 'workspace_op'; id: number; request: WorkspaceOpRequest }

export type InputFrame = { kind: number; sub?: number; id?: number; nowMs: number; payload: Uint8Array }

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Writes an input frame (header + payload) into `target`, which must be large enough. */
export function writeInputFrame(target: Uint8Array, frame: InputFrame): void {
  const view = new DataView(target.buffer, target.byteOffset, INPUT_HEADER)
  view.setUint8(0, frame.kind)
  view.setUint8(1, frame.sub ?? 0)
  view.setUint16(2, 0, true)
  view.setUint32(4, frame.id ?? 0, true)
  view.setFloat64(8, frame.nowMs, true)
  view.setUint32(16, frame.payload.length, true)
  target.set(frame.payload, INPUT_HEADER)
}

export function bootPayload(options: BootOptions): Uint8Array {
  return encoder.encode(JSON.stringify(options))
}

export function resizePayload(cols: number, rows: number): Uint8Array {
  const bytes = new Uint8Array(8)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, cols, true)
  view.setUint32(4, rows, true)
  return bytes
}

/** A normalized model event → (sub-kind, payload). */
export function modelEventPayload(event: ModelEvent): { sub: number; payload: Uint8Array } {
  switch (event.type) {
    case 'text_delta':
    case 'reasoning_delta':
    case 'refusal_delta':
      return { sub: MODEL_SUB[event.type], payload: encoder.encode(event.delta) }
    case 'tool_call_start':
      return { sub: MODEL_SUB.tool_call_start, payload: encoder.encode(JSON.stringify({ index: event.index, id: event.id, name: event.name })) }
    case 'tool_call_delta': {
      const text = encoder.encode(event.delta)
      const bytes = new Uint8Array(4 + text.length)
      new DataView(bytes.buffer).setUint32(0, event.index, true)
      bytes.set(text, 4)
      return { sub: MODEL_SUB.tool_call_delta, payload: bytes }
    }
    case 'tool_call_end': {
      const bytes = new Uint8Array(4)
      new DataView(bytes.buffer).setUint32(0, event.index, true)
      return { sub: MODEL_SUB.tool_call_end, payload: bytes }
    }
    case 'usage':
      return { sub: MODEL_SUB.usage, payload: encoder.encode(JSON.stringify({ inputTokens: event.inputTokens, outputTokens: event.outputTokens })) }
    case 'finish':
      return { sub: MODEL_SUB.finish, payload: encoder.encode(event.reason) }
    case 'error':
      return { sub: MODEL_SUB.error, payload: encoder.encode(JSON.stringify(event)) }
  }
}

export function execResultPayload(result: { stdout: string; stderr: string; exitCode: number; cwd?: string }): Uint8Array {
  const out = encoder.encode(result.stdout)
  const err = encoder.encode(result.stderr)
  const cwd = encoder.encode(result.cwd ?? '')
  const bytes = new Uint8Array(16 + out.length + err.length + cwd.length)
  const view = new DataView(bytes.buffer)
  view.setInt32(0, result.exitCode | 0, true)
  view.setUint32(4, out.length, true)
  bytes.set(out, 8)
  view.setUint32(8 + out.length, err.length, true)
  bytes.set(err, 12 + out.length)
  view.setUint32(12 + out.length + err.length, cwd.length, true)
  bytes.set(cwd, 16 + out.length + err.length)
  return bytes
}

export function noticePayload(notice: HostNotice): Uint8Array {
  return encoder.encode(JSON.stringify(notice))
}

/** Splits the engine's output buffer into effects. Payloads are copied out of wasm memory. */
export function decodeEffects(memory: Uint8Array): EngineEffect[] {
  const effects: EngineEffect[] = []
  const view = new DataView(memory.buffer, memory.byteOffset, memory.byteLength)
  let at = 0
  while (at + OUTPUT_HEADER <= memory.length) {
    const kind = view.getUint8(at)
    const id = view.getUint32(at + 4, true)
    const len = view.getUint32(at + 8, true)
    const from = at + OUTPUT_HEADER
    // A snapshot (megabytes) goes into a buffer this thread recycles (snapshot-buffers.ts).
    const payload = kind === OUT.sessionCommit ? copyIntoSpare(memory.subarray(from, from + len)) : memory.slice(from, from + len)
    at += OUTPUT_HEADER + len
    const effect = decodeEffect(kind, id, payload)
    if (effect) effects.push(effect)
  }
  return effects
}

function decodeEffect(kind: number, id: number, payload: Uint8Array): EngineEffect | null {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength)
  switch (kind) {
    case OUT.write:
      return { kind: 'write', bytes: payload }
    case OUT.modelRequest:
      return { kind: 'model_request', id, request: JSON.parse(decoder.decode(payload)) as ModelRequest }
    case OUT.modelCancel:
      return { kind: 'model_cancel', id }
    case OUT.exec:
      return { kind: 'exec', id, request: JSON.parse(decoder.decode(payload)) as ExecRequest }
    case OUT.execCancel:
      return { kind: 'exec_cancel', id }
    case OUT.timerSet:
      return { kind: 'timer_set', id, delayMs: view.getFloat64(0, true) }
    case OUT.timerCancel:
      return { kind: 'timer_cancel', id }
    case OUT.event:
      return { kind: 'event', event: JSON.parse(decoder.decode(payload)) as { type: string } & Record<string, unknown> }
    case OUT.exit:
      return { kind: 'exit', code: view.getUint32(0, true) }
    case OUT.action:
      return { kind: 'action', action: JSON.parse(decoder.decode(payload)) as HostAction }
    case OUT.clipboard:
      return { kind: 'clipboard', text: decoder.decode(payload) }
    case OUT.echoHint:
      return { kind: 'echo_hint', columns: view.getUint32(0, true) }
    case OUT.configSet: {
      const { id, value } = JSON.parse(decoder.decode(payload)) as { id: string; value: string }
      return { kind: 'config_set', id, value }
    }
    case OUT.historyAppend:
      return { kind: 'history_append', value: decoder.decode(payload) }
    case OUT.historyClear:
      return { kind: 'history_clear' }
    case OUT.sessionCommit:
      return { kind: 'session_commit', bytes: payload }
    case OUT.sessionList:
      return { kind: 'session_list' }
    case OUT.sessionOpen:
      return { kind: 'session_open', id: (JSON.parse(decoder.decode(payload)) as { id: string }).id }
    case OUT.sessionRemove:
      return { kind: 'session_remove', id: (JSON.parse(decoder.decode(payload)) as { id: string }).id }
    case OUT.auth: {
      const { action, provider } = JSON.parse(decoder.decode(payload)) as { action: AuthAction; provider?: unknown }
      return typeof provider === 'string' && provider !== '' ? { kind: 'auth', action, provider } : { kind: 'auth', action }
    }
    case OUT.toolCall:
      return { kind: 'tool_call', id, call: JSON.parse(decoder.decode(payload)) as HostToolCall }
    case OUT.toolCancel:
      return { kind: 'tool_cancel', id }
    case OUT.workspace:
      return { kind: 'workspace_op', id, request: JSON.parse(decoder.decode(payload)) as WorkspaceOpRequest }
    case OUT.catalogRequest:
      return { kind: 'catalog_request', provider: (JSON.parse(decoder.decode(payload)) as { provider: string }).provider }
    default:
      return null
  }
}
