/**
 * The headless host loop: one engine instance booted with `headless` (no terminal output, no
 * spinner), fed one input at a time, whose effects are performed here — model requests through
 * a provider, host tool calls and commands through the caller, timers (retries), commits. The
 * caller sees what a turn does as the engine's events plus the model events of the turn's own
 * requests (a compaction's request is left out: its text is a summary, not the reply).
 */
import { ErrorCode } from '../errors.ts'
import type { ModelEvent, ModelInfo, ModelProvider, ModelRequest } from '../protocol/model-events.ts'
import type { ExecResult } from '../protocol/workspace.ts'
import { AGENT_SUB, type BootOptions, type EngineEffect, type ExecRequest, type HostToolCall } from '../worker/engine-frames.ts'
import { EngineTrap, instantiateEngine, type EngineInstance } from '../worker/engine-instance.ts'
import { createEngineTimers, createFeedQueue } from '../worker/engine-feed.ts'

/** During a burst, the reply's text goes to the engine and the caller at most this often (the terminal draws once per 16 ms frame). */
const TEXT_HOLD_MS = 8

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
  const engine: EngineInstance = await instantiateEngine(options.module)
  const requests = new Map<number, AbortController>()
  const execs = new Map<number, AbortController>()
  const timers = createEngineTimers((id) => run((e) => e.timer(id, now())))
  /** Requests whose events are not the reply (a compaction's summary). */
  const quiet = new Set<number>()
  let compacting = false
  let dead = false

  // Inputs queue so that an effect answered at once never runs inside another feed.
  const run = createFeedQueue({
    engine: () => engine,
    perform: (effect) => perform(effect),
    onTrap: (trap) => {
      stopAll()
      hooks.onTrap(trap)
    },
    stopped: () => dead,
  })

  const perform = (effect: EngineEffect) => {
    switch (effect.kind) {
      case 'model_request':
        if (compacting) quiet.add(effect.id)
        else hooks.onRequest?.(effect.request)
        startRequest(effect.id, effect.request)
        return
      case 'model_cancel':
        requests.get(effect.id)?.abort()
        requests.delete(effect.id)
        return
      case 'exec':
        startExec(effect.id, effect.request)
        return
      case 'exec_cancel':
        execs.get(effect.id)?.abort()
        execs.delete(effect.id)
        return
      case 'timer_set':
        timers.set(effect.id, effect.delayMs)
        return
      case 'timer_cancel':
        timers.cancel(effect.id)
        return
      case 'event':
        if (effect.event.type === 'compaction_start') compacting = true
        if (effect.event.type === 'compaction_end') compacting = false
        hooks.onEngineEvent(effect.event)
        return
      case 'catalog_request': {
        const models = options.catalog ?? []
        run((e) => e.catalog({ provider: effect.provider, models }, now()))
        return
      }
      case 'session_commit':
        hooks.onCommit(effect.bytes)
        return
      case 'tool_call':
        hooks.onToolCall(effect.id, effect.call)
        return
      case 'tool_cancel':
        hooks.onToolCancel(effect.id)
        return
      default:
        return // writes, echo hints and the terminal's other effects do not occur headless
    }
  }

  const providerFor = (name: string | undefined) => {
    const providers = options.providers()
    return providers.find((p) => p.name === name) ?? providers.find((p) => p.name === options.boot.provider) ?? providers[0]!
  }

  const startRequest = (id: number, request: ModelRequest) => {
    const controller = new AbortController()
    requests.set(id, controller)
    const forward = (event: ModelEvent) => {
      if (!quiet.has(id)) hooks.onModelEvent(event)
      run((e) => e.modelEvent(id, event, now()))
    }
    // Deltas that arrive together go on as one: one engine feed and one line instead of one per
    // 4-character SSE event. Text goes on at the end of the microtask run after a pause, and
    // during a burst at most every TEXT_HOLD_MS: a busy machine hands a 9 MB body over in 100 and
    // more small reads, and each cost an engine feed, a line and its trip to the page (~0.15 ms
    // a read). Order is kept: pending text goes first when any other event comes. This runs
    // once per SSE event, so it reads only locals (an AbortSignal's `aborted` is a DOM getter).
    let open = true
    controller.signal.addEventListener('abort', () => (open = false), { once: true })
    let textType: 'text_delta' | 'reasoning_delta' | null = null
    let parts: string[] = []
    let lastText = -Infinity
    let checking = false
    let timer: ReturnType<typeof setTimeout> | null = null
    const flush = () => {
      if (timer !== null) clearTimeout(timer)
      timer = null
      if (textType === null) return
      const type = textType
      const delta = parts.length === 1 ? parts[0]! : parts.join('')
      textType = null
      parts = []
      lastText = performance.now()
      if (open) forward({ type, delta })
    }
    // At the end of each microtask run: a body whose bytes are all there is read in one long
    // chain of microtasks, which no timer interrupts.
    const check = () => {
      checking = false
      if (textType === null || !open) return
      const wait = lastText + TEXT_HOLD_MS - performance.now()
      if (wait <= 0) flush()
      else timer ??= setTimeout(flush, wait)
    }
    const emit = (event: ModelEvent) => {
      if (!open) return
      const type = event.type
      if (type === 'text_delta' || type === 'reasoning_delta') {
        if (textType !== type) {
          flush()
          textType = type
        }
        parts.push(event.delta)
        if (!checking) {
          checking = true
          queueMicrotask(check)
        }
        return
      }
      flush()
      if (type === 'finish' || type === 'error') {
        requests.delete(id)
        forward(event)
        open = false
        return
      }
      forward(event)
    }
    providerFor(request.provider).stream(request, emit, controller.signal).then(
      () => {
        if (open) emit({ type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'The model stream ended without finishing.' })
      },
      (error: unknown) => emit({ type: 'error', code: ErrorCode.FX_MODEL_PROVIDER_FAILED, message: `The model request failed: ${error instanceof Error ? error.message : String(error)}` }),
    )
  }

  const startExec = (id: number, request: ExecRequest) => {
    const controller = new AbortController()
    execs.set(id, controller)
    const finish = (result: ExecResult) => {
      if (execs.get(id) !== controller) return
      execs.delete(id)
      run((e) => e.execResult(id, result, now()))
    }
    if (!options.exec) return finish({ stdout: '', stderr: 'no workspace is connected', exitCode: 127 })
    options.exec(request, controller.signal).then(finish, (error: unknown) =>
      finish({ stdout: '', stderr: `the workspace failed: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 }),
    )
  }

  const stopAll = () => {
    dead = true // what waits in the feed queue is dropped: it feeds nothing once stopped
    for (const c of requests.values()) c.abort()
    requests.clear()
    for (const c of execs.values()) c.abort()
    execs.clear()
    timers.clear()
  }

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
    dispose: stopAll,
  }
}
