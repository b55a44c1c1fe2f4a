/**
 * The engine's host core, shared by its two front ends (the terminal's host loop, host-loop.ts,
 * and the headless agent's engine runner, src/engine-worker/agent/engine-runner.ts): one engine instance, fed
 * one input at a time, and the effects every host performs the same way — model requests, command
 * execs and timers. The effects only a front end knows what to do with (terminal writes, session
 * commits, tool calls…) go to its handlers; one it has no handler for is dropped.
 *
 * A trap cancels everything in flight and leaves the core without an engine (inputs are dropped)
 * until the front end asks for a fresh one with `restart`.
 */
import type { ModelEvent, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import type { ExecResult } from '../../shared/protocol/workspace.ts'
import type { EngineEffect, ExecRequest } from '../../shared/messages/engine-frames.ts'
import { createEngineTimers, createFeedQueue, type EngineInput } from './engine-feed.ts'
import { EngineTrap, instantiateEngine, type EngineInstance } from './engine-instance.ts'
import { createModelRequests } from './model-requests.ts'

/** The effects the core performs itself. */
/**
 * How long past a command's limit the host waits for the workspace before it stops waiting: the
 * bash workspace ends its own commands at the limit (a stuck one within 1 s more), so this only
 * fires for an adapter that ignores `timeoutMs` and its signal.
 */
export const EXEC_DEADLINE_GRACE_MS = 2_000

type CoreEffectKind = 'model_request' | 'model_cancel' | 'exec' | 'exec_cancel' | 'timer_set' | 'timer_cancel'
/** The effects a front end performs. */
export type FrontEndEffect = Exclude<EngineEffect, { kind: CoreEffectKind }>
export type EffectHandlers = { [K in FrontEndEffect['kind']]?: (effect: Extract<FrontEndEffect, { kind: K }>) => void }

export type EngineHostCoreOptions = {
  module: WebAssembly.Module
  /** The first engine, instantiated already (else one is made from `module`, as a restarted one is). */
  engine?: EngineInstance
  /** The providers a model request can go to (asked for each request). */
  providers(): ModelProvider[]
  /** Where a request that names no provider goes (the one active at boot). */
  defaultProvider?: string
  /** Text batching: during a burst, text deltas reach the engine at most this often. */
  textIntervalMs: number
  /** A model request with no progress for this long ends as dropped (model-requests.ts). */
  idleTimeoutMs?: number
  /** Runs a command; `signal` aborts it (Ctrl+C, a cancelled turn, a trap). Absent: no workspace. */
  exec?(id: number, request: ExecRequest, signal: AbortSignal): Promise<ExecResult>
  effects: EffectHandlers
  /** The engine asked for model request `id` (before it starts). */
  onModelRequest?(id: number, request: ModelRequest): void
  /** An event of request `id`, before the engine is fed it. */
  onModelEvent?(id: number, event: ModelEvent): void
  /** Request `id` ended (finish or error) and the engine has been fed its end. */
  onModelEnd?(id: number): void
  /** The engine trapped; what was in flight is cancelled, and inputs are dropped until `restart`. */
  onTrap(trap: EngineTrap): void
  now?: () => number
}

export type EngineHostCore = {
  /** Feeds one input; one given while another runs (an effect answered at once) waits its turn. */
  feed(input: EngineInput): void
  /** The clock inputs are stamped with. */
  now(): number
  /** A fresh engine from the module in place of the trapped one; it must be booted again. */
  restart(): Promise<void>
  /** Cancels every request, command and timer in flight; nothing is fed afterwards. */
  dispose(): void
}

export async function createEngineHostCore(options: EngineHostCoreOptions): Promise<EngineHostCore> {
  const now = options.now ?? (() => Date.now())
  let engine: EngineInstance | null = options.engine ?? (await instantiateEngine(options.module))
  let disposed = false
  const execs = new Map<number, AbortController>()
  const timers = createEngineTimers((id) => feed((e) => e.timer(id, now())))
  const models = createModelRequests({
    providers: options.providers,
    ...(options.defaultProvider !== undefined ? { defaultProvider: options.defaultProvider } : {}),
    textIntervalMs: options.textIntervalMs,
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    deliver: (id, event) => {
      options.onModelEvent?.(id, event)
      feed((e) => e.modelEvent(id, event, now()))
      if (event.type === 'finish' || event.type === 'error') options.onModelEnd?.(id)
    },
  })

  const perform = (effect: EngineEffect) => {
    switch (effect.kind) {
      case 'model_request':
        options.onModelRequest?.(effect.id, effect.request)
        models.start(effect.id, effect.request)
        return
      case 'model_cancel':
        models.cancel(effect.id)
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
      default:
        ;(options.effects[effect.kind] as ((effect: FrontEndEffect) => void) | undefined)?.(effect)
    }
  }

  const startExec = (id: number, request: ExecRequest) => {
    const controller = new AbortController()
    execs.set(id, controller)
    let deadline: ReturnType<typeof setTimeout> | undefined
    const finish = (result: ExecResult) => {
      clearTimeout(deadline)
      // A cancelled command's late result is not the engine's business any more.
      if (execs.get(id) !== controller) return
      execs.delete(id)
      feed((e) => e.execResult(id, result, now()))
    }
    // The limit holds whatever the adapter does: at the deadline its signal aborts and the model
    // is told the command timed out (exit 124, as coreutils `timeout`).
    const limitMs = Number.isFinite(request.timeoutMs) && request.timeoutMs > 0 ? request.timeoutMs : 30_000
    deadline = setTimeout(() => {
      if (execs.get(id) !== controller) return
      controller.abort()
      finish({ stdout: '', stderr: `fxterm: command timed out after ${limitMs / 1000} s: the workspace did not stop it, so fxterm stopped waiting for it`, exitCode: 124 })
    }, limitMs + EXEC_DEADLINE_GRACE_MS)
    if (!options.exec) return finish({ stdout: '', stderr: 'fxterm: no workspace is connected', exitCode: 127 })
    options.exec(id, request, controller.signal).then(finish, (error: unknown) =>
      finish({ stdout: '', stderr: `fxterm: the workspace failed: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 }),
    )
  }

  const cancelAll = () => {
    models.cancelAll()
    for (const c of execs.values()) c.abort()
    execs.clear()
    timers.clear()
  }

  const feed = createFeedQueue({
    engine: () => engine!,
    perform,
    onTrap: (trap) => {
      engine = null
      cancelAll()
      options.onTrap(trap)
    },
    stopped: () => disposed || engine === null,
  })

  return {
    feed,
    now,
    restart: async () => {
      engine = await instantiateEngine(options.module)
    },
    dispose: () => {
      cancelAll()
      disposed = true
    },
  }
}
