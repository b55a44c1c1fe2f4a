/**
 * The headless agent's front end of the engine host core (src/engine-worker/host/engine-host-core.ts): one
 * engine booted with `headless` (no terminal output, no spinner), whose host tool calls and
 * commits go to the caller, and whose model requests and commands the core performs. The
 * caller sees what a turn does as the engine's events plus the model events of the turn's own
 * requests (a compaction's request is left out: its text is a summary, not the reply).
 */
import type { ModelEvent, ModelInfo, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import type { ExecResult } from '../../shared/protocol/workspace.ts'
import { AGENT_SUB, type BootOptions, type ExecRequest, type HostToolCall } from '../../shared/messages/engine-frames.ts'
import { createEngineHostCore } from '../host/engine-host-core.ts'
import type { EngineTrap } from '../host/engine-instance.ts'

/**
 * During a burst, the reply's text goes to the engine and the caller at most this often (the
 * terminal draws once per 16 ms frame). A busy machine hands a 9 MB body over in 100 and more
 * small reads, and each would cost an engine feed, a line and its trip to the page.
 */
const TEXT_INTERVAL_MS = 8

/** What the runner reports to the session that owns it. */
export type RunnerHooks = {
  /** The engine asked for a model request (after any steers joined the conversation). */
  onRequest?(request: ModelRequest): void
  /** A model event of the turn's own request, in order. */
  onModelEvent(event: ModelEvent): void
  /** An engine event: turn_start, turn_end, tool_start, tool_end, model_retry, compaction_*… */
  onEngineEvent(event: { type: string } & Record<string, unknown>): void
  /** Snapshot bytes at a commit point (prompt accepted, each tool step, turn end). */
  onCommit(bytes: Uint8Array): void
  /** Run a host tool; answer with `runner.toolResult(id, text)`. */
  onToolCall(id: number, call: HostToolCall): void
  /** The turn was cancelled while that tool ran. */
  onToolCancel(id: number): void
  /** The engine trapped: the instance is dead and the turn cannot go on. */
  onTrap(error: EngineTrap): void
}

/** One session's engine: its module, boot fields, providers, catalog, workspace and hooks. */
export type RunnerOptions = {
  module: WebAssembly.Module
  boot: Omit<BootOptions, 'seed' | 'cols' | 'rows'>
  /** The providers a request can go to (asked for each request, so credentials stay fresh). */
  providers: () => ModelProvider[]
  /** Answers the engine's catalog request without a network request (empty: unknown). */
  catalog?: ModelInfo[]
  /** The workspace's exec, when there is one (run_command). */
  exec?: (request: ExecRequest, signal: AbortSignal) => Promise<ExecResult>
  hooks: RunnerHooks
  now?: () => number
  /** A model request with no progress for this long ends as dropped (the `streamIdleTimeoutMs` option). */
  idleTimeoutMs?: number
}

/** Drives one headless engine; every call feeds one input frame. */
export type EngineRunner = {
  prompt(text: string): void
  steer(text: string): void
  cancel(): void
  /** Restores saved snapshot bytes; an interrupted turn continues at once (its turn_start is reported before this settles). */
  restore(bytes: Uint8Array): Promise<void>
  toolResult(id: number, text: string): void
  /** Images for the markers of a prompt (a runner in a worker keeps its own copy). */
  addImages(messageId: string, images: Array<{ mimeType: string; data: string }>): void
  /** The credential for the next requests changed. */
  setApiKey(apiKey: string | undefined): void
  /** Applies a setting (`model`, `fast`) as if another tab chose it: after a restore. */
  configure(id: string, value: string): void
  /** Stops everything in flight; the runner is unusable afterwards. */
  dispose(): void
}

/** Boots a headless engine in this thread (the agent's worker runs the same code). */
export async function createEngineRunner(options: RunnerOptions): Promise<EngineRunner> {
  const now = options.now ?? (() => Date.now())
  const hooks = options.hooks
  const exec = options.exec
  /** Requests whose events are not the reply (a compaction's summary). */
  const quiet = new Set<number>()
  let compacting = false

  const core = await createEngineHostCore({
    module: options.module,
    providers: options.providers,
    ...(options.boot.provider !== undefined ? { defaultProvider: options.boot.provider } : {}),
    textIntervalMs: TEXT_INTERVAL_MS,
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    ...(exec ? { exec: (_id: number, request: ExecRequest, signal: AbortSignal) => exec(request, signal) } : {}),
    onModelRequest: (id, request) => {
      if (compacting) quiet.add(id)
      else hooks.onRequest?.(request)
    },
    onModelEvent: (id, event) => {
      if (!quiet.has(id)) hooks.onModelEvent(event)
    },
    onTrap: (trap) => hooks.onTrap(trap),
    now,
    // Writes, echo hints and the terminal's other effects do not occur headless.
    effects: {
      event: ({ event }) => {
        if (event.type === 'compaction_start') compacting = true
        if (event.type === 'compaction_end') compacting = false
        hooks.onEngineEvent(event)
      },
      catalog_request: ({ provider }) => run((e) => e.catalog({ provider, models: options.catalog ?? [] }, now())),
      session_commit: ({ bytes }) => hooks.onCommit(bytes),
      tool_call: ({ id, call }) => hooks.onToolCall(id, call),
      tool_cancel: ({ id }) => hooks.onToolCancel(id),
    },
  })
  const run = core.feed

  run((e) => e.boot({ ...options.boot, cols: 80, rows: 24, seed: Math.floor(Math.random() * 0x7fffffff), headless: true, sessions: true }, now()))

  return {
    prompt: (text) => run((e) => e.agent(AGENT_SUB.prompt, text, now())),
    steer: (text) => run((e) => e.agent(AGENT_SUB.steer, text, now())),
    cancel: () => run((e) => e.agent(AGENT_SUB.cancel, '', now())),
    restore: async (bytes) => run((e) => e.session(bytes, false, now())),
    addImages: () => {},
    setApiKey: () => {},
    toolResult: (id, text) => run((e) => e.toolResult(id, text, now())),
    configure: (id, value) => run((e) => e.configChanged(id, value, now())),
    dispose: core.dispose,
  }
}
