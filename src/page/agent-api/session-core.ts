/**
 * One session as the agent runs it: its stored record and stream, its prompt queue (one turn at
 * a time; a prompt is stored before `accepted` resolves and runs after the ones before it), the
 * session lock while there is work, and the engine that runs its turns. A record left with a
 * running turn (a closed page) is continued before anything new runs.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { EngineRunner } from '../../engine-worker/agent/engine-runner.ts'
import { createSessionState } from './session-state.ts'
import type { StreamLog } from './stream-log.ts'
import { createTurnRecorder, type ActiveTurn, type TurnRecorder } from './turn-recorder.ts'
import type { AgentEnv, TurnSettings } from './agent-env.ts'
import type { MadeWith } from './durability.ts'
import { checkPrompt, imageMarker } from '../../engine-worker/agent/prompt-input.ts'
import { FXTERM_VERSION } from '../../shared/version.ts'
import { encodeRecord } from './persistence.ts'
import type { FxPromptInput, FxResumeOptions, FxTurnResult } from '../../shared/agent-api/types.ts'

/** A prompt waiting for its turn. */
export type QueuedPrompt = {
  messageId: string
  input: FxPromptInput
  settings: TurnSettings
  signal?: AbortSignal
  /** Images given as bytes, a Blob or a File, read to base64 before the prompt is stored. */
  prepared?: Promise<FxPromptInput>
  /** Called once the prompt is stored (`isNew` false: the messageId was seen before). */
  onStored(isNew: boolean): void
  /** The prompt could not be stored (the store failed): it will not run. */
  onFailed(error: unknown): void
  stored?: Promise<boolean>
}

/** One session as the agent runs it (shared by every handle `agent.session(id)` returns). */
export type SessionCore = {
  readonly id: string
  /** The stream, loaded from the store on first use. */
  log(): Promise<StreamLog>
  enqueue(job: QueuedPrompt): void
  /** The result of `messageId`'s turn once it ends (a stored one at once). */
  resultOf(messageId: string): Promise<FxTurnResult>
  steer(text: string, settings: TurnSettings): void
  cancel(): void
  resume(options?: FxResumeOptions): Promise<FxTurnResult | null>
  checkpoint(): Promise<Uint8Array>
  /** Resolves when no work is left. */
  idle(): Promise<void>
  dispose(): void
}

/** The reference caps a checkpoint at 4 MiB. */
export const CHECKPOINT_MAX_BYTES = 4 * 1024 * 1024

const zeroUsage = () => ({ inputTokens: 0, outputTokens: 0 })

/** A session's core; nothing is loaded until it is used. */
export function createSessionCore(id: string, env: AgentEnv): SessionCore {
  const durability = env.durability
  const state = createSessionState(id, durability, env.onEvent)
  const { record, turnOf } = state
  const ensureLoaded = state.load
  const saveSoon = state.save
  let runner: EngineRunner | null = null
  let runnerKey = ''
  let recorder: TurnRecorder | null = null
  let active: ActiveTurn | null = null
  let endActive: ((result: FxTurnResult) => void) | null = null
  const jobs: QueuedPrompt[] = []
  const waiters = new Map<string, Array<(r: FxTurnResult) => void>>()
  let driving: Promise<void> | null = null
  /** What `resume()` asked of the next drive, and the turn that drive continued. */
  let resumeWith: FxResumeOptions = {}
  let resumed: FxTurnResult | null = null
  let locked = false
  /** A turn the engine started on its own (steers left when a turn ended), until it ends. */
  let steerTurn: Promise<void> | null = null
  let steerTurnDone: (() => void) | null = null

  const finish = (messageId: string, result: FxTurnResult) => {
    for (const resolve of waiters.get(messageId) ?? []) resolve(result)
    waiters.delete(messageId)
  }

  const endTurn = (messageId: string, result: FxTurnResult) => {
    const stored = turnOf(messageId)
    if (stored) Object.assign(stored, { status: 'done', result })
    void saveSoon()
    const end = endActive
    endActive = null
    end?.(result)
    finish(messageId, result)
  }

  const makeRecorder = (settings: TurnSettings) =>
    createTurnRecorder({
      sessionId: id,
      log: state.log,
      tools: env.tools,
      onEvent: env.onEvent,
      active: () => active,
      adoptSteerTurn: (text) => {
        const messageId = env.newMessageId()
        record.turns.push({ messageId, input: text, status: 'running' })
        active = { messageId, resumed: false, text, context: settings.context, usage: zeroUsage(), steps: 0 }
        steerTurn = new Promise<void>((resolve) => (steerTurnDone = resolve))
        return active
      },
      onCommit: (bytes) => {
        // Another writer took the conversation over: this engine stops instead of diverging.
        if (durability.halted?.()) return runner?.cancel()
        record.snapshot = bytes
        // The turn counts as running from the commit that holds its prompt.
        const stored = active ? turnOf(active.messageId) : undefined
        if (stored && stored.status === 'queued') stored.status = 'running'
        void saveSoon()
      },
      onTurnEnd: (turn, result) => {
        active = null
        endTurn(turn.messageId, result)
        steerTurnDone?.()
        steerTurn = steerTurnDone = null
      },
      onTrap: (message) => {
        runner?.dispose()
        runner = null
        runnerKey = ''
        if (active) {
          active.error = { code: ErrorCode.FX_ENGINE_TRAP, message }
          recorder?.onEngineEvent({ type: 'turn_end', stopReason: 'error' })
        }
        env.onEvent({ type: 'engine.trap', sessionId: id, message })
      },
      keepToolImages: (images) => {
        const key = env.newMessageId()
        record.toolImages = { ...record.toolImages, [key]: images }
        runner?.addImages(key, images)
        return key
      },
      onToolRunning: (call) => {
        if (call) record.running = call
        else delete record.running
      },
      runner: () => runner,
    })

  /** The runner for these settings: a new one, restored from the snapshot, when they changed. */
  const runnerFor = async (settings: TurnSettings): Promise<EngineRunner> => {
    const built = await env.build(id, settings, state.imageOf)
    noteMadeWith({ model: built.model, tools: env.tools.map((tool) => tool.name).sort(), version: FXTERM_VERSION })
    if (runner && runnerKey === built.key) {
      runner.setApiKey(built.apiKey)
      return runner
    }
    runner?.dispose()
    recorder = makeRecorder(settings)
    runner = await built.create(recorder, state.allImages())
    runnerKey = built.key
    if (record.snapshot && record.snapshot.length > 0) await runner.restore(record.snapshot)
    // A snapshot brings the model it was saved with; the session's settings win.
    runner.configure('model', built.model)
    return runner
  }

  /** The session goes on under another model, tool set or version than its last turn: the app hears what changed. */
  const noteMadeWith = (now: MadeWith & { version: string }) => {
    const was = record.madeWith
    record.madeWith = now
    if (!was) return
    const changed: Array<'model' | 'tools' | 'version'> = [
      ...(was.model !== now.model ? (['model'] as const) : []),
      ...(was.tools.join() !== now.tools.join() ? (['tools'] as const) : []),
      // A record from before versions were kept says nothing about its version.
      ...(was.version !== undefined && was.version !== now.version ? (['version'] as const) : []),
    ]
    if (changed.length > 0) env.onEvent({ type: 'checkpoint.mismatch', sessionId: id, changed, was, now })
  }

  const failTurn = (messageId: string, error: unknown) => {
    const e = error as { code?: string; message?: string }
    const result: FxTurnResult = { messageId, stopReason: 'error', usage: zeroUsage(), error: { code: e.code ?? ErrorCode.FX_AGENT_FAILED, message: e.message ?? String(error) } }
    state.log.append({ type: 'turn_start', sessionId: id, messageId })
    state.log.append({ type: 'turn_end', ...result })
    endTurn(messageId, result)
  }

  const runTurn = (job: QueuedPrompt): Promise<FxTurnResult> =>
    new Promise<FxTurnResult>((resolve) => {
      if (job.signal?.aborted) {
        // Stored, then aborted while another turn ran: its readers get a start and an end.
        const result: FxTurnResult = { messageId: job.messageId, stopReason: 'cancelled', usage: zeroUsage() }
        state.log.append({ type: 'turn_start', sessionId: id, messageId: job.messageId })
        state.log.append({ type: 'turn_end', ...result })
        endTurn(job.messageId, result)
        return resolve(result)
      }
      endActive = resolve
      const halt = durability.halted?.()
      if (halt) return failTurn(job.messageId, halt)
      const checked = checkPrompt(job.input)
      runnerFor(job.settings).then(
        (r) => {
          active = { messageId: job.messageId, resumed: false, text: checked.text, images: checked.images.length, context: job.settings.context, usage: zeroUsage(), steps: 0 }
          job.signal?.addEventListener('abort', () => active?.messageId === job.messageId && r.cancel(), { once: true })
          if (checked.images.length > 0) r.addImages(job.messageId, checked.images.map(({ mimeType, data }) => ({ mimeType, data })))
          r.prompt(checked.text + checked.images.map((_, i) => imageMarker(job.messageId, i)).join(''))
        },
        (error: unknown) => failTurn(job.messageId, error),
      )
    })

  /** A record left mid-turn: the engine continues it from the snapshot (a `turn_resume` line). */
  const resumeOpenTurn = async (options: FxResumeOptions = {}): Promise<FxTurnResult | null> => {
    const open = record.turns.find((t) => t.status === 'running')
    if (!open) return null
    let settings = env.defaultSettings
    // A call that was running and may not be safe to repeat: the caller may say to run it again.
    const running = record.running
    const tool = running ? env.tools.find((t) => t.name === running.name) : undefined
    if (running && tool && !tool.idempotent && options.onAmbiguous) {
      const { name, input, executionId } = running
      if ((await options.onAmbiguous({ name, input, executionId })) === 'rerun') settings = { ...settings, rerun: [name] }
    }
    const ended = new Promise<FxTurnResult>((resolve) => (endActive = resolve))
    const turn: ActiveTurn = { messageId: open.messageId, resumed: true, context: env.defaultSettings.context, usage: zeroUsage(), steps: 0 }
    active = turn
    runner?.dispose()
    runner = null
    try {
      await runnerFor(settings)
    } catch (error) {
      active = null
      failTurn(open.messageId, error)
      return ended
    }
    if (!turn.started) {
      // The snapshot holds no open turn (it was saved as the turn ended): how it ended is unknown.
      active = null
      endTurn(open.messageId, { messageId: open.messageId, stopReason: 'unknown', usage: zeroUsage() })
    }
    return ended
  }

  /** Stores a prompt (once); stores run in the order prompts were sent. */
  let storing: Promise<unknown> = Promise.resolve()
  const store = (job: QueuedPrompt): Promise<boolean> =>
    (job.stored ??= (storing = storing.then(async () => {
      try {
        await ensureLoaded()
      } catch (error) {
        job.onFailed(error)
        return false
      }
      if (job.prepared) {
        try {
          job.input = await job.prepared
          checkPrompt(job.input)
        } catch (error) {
          job.onFailed(error) // an image that cannot be read or sent: nothing is stored
          return false
        }
        delete job.prepared
      }
      const isNew = !turnOf(job.messageId)
      if (isNew && job.signal?.aborted) {
        // Aborted while it waited to be stored: nothing was stored, so `accepted` rejects.
        job.onFailed(new FxError(ErrorCode.FX_TURN_CANCELLED, 'The prompt was cancelled before it was stored.'))
        return false
      }
      if (isNew) {
        record.turns.push({ messageId: job.messageId, input: job.input, status: 'queued' })
        await saveSoon()
      }
      job.onStored(isNew)
      return isNew
    })) as Promise<boolean>)

  /** Another tab may have written this session since it was loaded: its engine starts over from it. */
  const refresh = async () => {
    if (!(await state.refresh())) return
    runner?.dispose()
    runner = null
    runnerKey = ''
  }

  const drive = async () => {
    await ensureLoaded()
    if (durability.kind !== 'memory') await refresh()
    const options = resumeWith
    resumeWith = {}
    const result = await resumeOpenTurn(options)
    if (result) {
      resumed = result
      env.touch(id, release)
    }
    for (const job of jobs) void store(job)
    // Prompts a closed page stored but never ran go first, in their order.
    const leftover = record.turns.filter((t) => t.status === 'queued' && !jobs.some((j) => j.messageId === t.messageId))
    jobs.unshift(...leftover.map((t) => ({ messageId: t.messageId, input: t.input, settings: env.defaultSettings, onStored() {}, onFailed() {}, stored: Promise.resolve(true) })))
    while (jobs.length > 0) {
      const job = jobs[0]!
      const isNew = await store(job)
      jobs.shift()
      // The engine may have started a turn of its own from steers: the next prompt waits for it.
      while (steerTurn) await steerTurn
      if (isNew) await runTurn(job)
      env.touch(id, release)
    }
  }

  /** Lets the engine go when the agent keeps too many (it boots again from the snapshot). */
  const release = (): boolean => {
    if (active || jobs.length > 0 || !runner) return !runner
    runner.dispose()
    runner = null
    runnerKey = ''
    return true
  }

  const kick = () => {
    if (driving) return
    driving = durability
      .withLock(id, async () => {
        locked = true
        try {
          await drive()
        } finally {
          locked = false
        }
      })
      .catch((error: unknown) => {
        env.onEvent({ type: 'session.error', sessionId: id, message: error instanceof Error ? error.message : String(error) })
        // Nothing queued can run now (the store failed): each prompt hears why, and none is retried in a loop.
        for (const job of jobs.splice(0)) job.onFailed(error)
      })
      .finally(() => {
        driving = null
        if (jobs.length > 0) kick()
      })
  }

  const core: SessionCore = {
    id,
    log: ensureLoaded,
    enqueue(job) {
      jobs.push(job)
      // While this page holds the lock, a prompt is stored at once (accepted), then waits its turn.
      if (locked) for (const queued of jobs) void store(queued)
      kick()
    },
    resultOf: (messageId) =>
      new Promise<FxTurnResult>((resolve) => {
        void ensureLoaded().then(() => {
          const done = turnOf(messageId)?.result
          if (done) return resolve(done)
          waiters.set(messageId, [...(waiters.get(messageId) ?? []), resolve])
        })
      }),
    steer(text, settings) {
      if (active && runner) {
        recorder?.steered(text)
        runner.steer(text)
        return
      }
      core.enqueue({ messageId: env.newMessageId(), input: text, settings, onStored() {}, onFailed() {} })
    },
    cancel() {
      if (active) runner?.cancel()
    },
    async resume(options) {
      // Through the queue's own drive, so a prompt sent meanwhile never races the resumed turn.
      resumeWith = options ?? {}
      resumed = null
      kick()
      while (driving) await driving
      return resumed
    },
    async checkpoint() {
      await ensureLoaded()
      await state.saved()
      if (!record.snapshot) return new Uint8Array(0)
      // The conversation, what it ran with (for checkpoint.mismatch) and, when they fit, its images.
      const base = { snapshot: record.snapshot, chunks: 0, lineCount: 0, ...(record.madeWith ? { madeWith: record.madeWith } : {}) }
      const whole = encodeRecord({ ...base, turns: record.turns.filter((t) => t.status === 'done'), ...(record.toolImages ? { toolImages: record.toolImages } : {}) })
      return whole.length <= CHECKPOINT_MAX_BYTES ? whole : encodeRecord({ ...base, turns: [] })
    },
    async idle() {
      while (driving) await driving
      await state.saved()
    },
    dispose() {
      state.dispose()
      runner?.dispose()
      runner = null
    },
  }
  return core
}
