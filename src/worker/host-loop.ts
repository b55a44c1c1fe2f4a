/**
 * The host loop: feeds inputs to the engine one at a time and performs the effects it asks for
 * (model requests through a provider, command execs through the workspace bridge, timers).
 * Inputs are queued so that an effect answered synchronously can never reorder terminal writes.
 * A trap in the engine is reported in the terminal and the engine starts again.
 */
import { ErrorCode } from '../errors.ts'
import type { ModelInfo, ModelProvider } from '../protocol/model-events.ts'
import type { ExecResult } from '../protocol/workspace.ts'
import type { AuthAction, AuthDisplayState, BootOptions, EngineEffect, ExecRequest, HostAction, HostNotice, SessionEvent, SessionListEntry } from './engine-frames.ts'
import { createDeltaCoalescer } from './delta-coalescer.ts'
import { EngineTrap, instantiateEngine, type EngineInstance } from './engine-instance.ts'
import { createEngineTimers, createFeedQueue } from './engine-feed.ts'
import { reserveSpares } from '../stores/snapshot-buffers.ts'

export type ExecBridge = {
  exec(id: number, request: ExecRequest): Promise<ExecResult>
  cancel(id: number): void
}

export type HostLoopOptions = {
  module: WebAssembly.Module
  boot: Omit<BootOptions, 'seed'>
  /** The model providers; a request goes to the one it names (else the first). */
  providers: ModelProvider[]
  workspace: ExecBridge | null
  write(bytes: Uint8Array): void
  /**
   * Passes on at once what `write` may be holding back for the next frame: called when a model
   * response has ended, so its last lines never wait for a frame that has no reason to come.
   */
  flushWrites?(): void
  onEvent(event: { type: string } & Record<string, unknown>): void
  onExit(code: number): void
  /** Performs a host action (a slash command's request); its answer comes back as a notice. */
  onAction?(action: HostAction): void
  /** How many typed characters the page may echo itself (see the engine's echoHint). */
  onEchoHint?(columns: number): void
  /** Writes text to the clipboard (a copy the person asked for). */
  onClipboard?(text: string): void
  /** A setting the engine accepted, for the configStore. */
  onConfig?(id: string, value: string): void
  /** /login, /logout and /key: the host runs them and answers with `authState`. */
  onAuth?(action: AuthAction): void
  /** A fresh engine was booted after a trap (what only the host knows must be told again). */
  onRestarted?(): void
  /** Sessions and prompt history (absent: nothing is saved). */
  sessions?: SessionHost
  /**
   * A saved session to restore right after boot (`--resume`). `decoded`: `engine` has already
   * decoded these bytes (EngineInstance.decodeSession) and restores what it holds.
   */
  resume?: { bytes: Uint8Array; readOnly: boolean; decoded?: boolean }
  /** The first engine, instantiated already (else one is made from `module`; so is a restarted one). */
  engine?: EngineInstance
  now?: () => number
  seed?: () => number
}

/** Where sessions and prompt history go; answers come back to the engine as input frames. */
export type SessionHost = {
  /** `bytes` are the host's from now on (the loop never reads them again), so they may be moved. */
  commit(bytes: Uint8Array): Promise<SessionEvent>
  list(): Promise<SessionListEntry[]>
  open(id: string): Promise<{ bytes: Uint8Array; readOnly: boolean } | null>
  remove(id: string): void
  historyAppend(value: string): void
  historyClear(): void
}

export type HostLoop = {
  keys(bytes: Uint8Array): void
  resize(cols: number, rows: number): void
  /** Shows a message from the host in the transcript. */
  notice(notice: HostNotice): void
  /** Cancels every request, command and timer in flight. */
  dispose(): void
  /** Shows a sign-in or key state (never a token or a key). */
  authState(state: AuthDisplayState): void
  /** A setting another tab saved: the engine applies it (nothing is written back). */
  configChanged(id: string, value: string): void
  /**
   * What the stores held, after a boot with `restorePending` (start-up does not wait for them):
   * settings, history, instructions and notices, then the session to resume, if any.
   */
  restore(stored: StoredState, resume?: { bytes: Uint8Array; readOnly: boolean }): void
  /** Makes the engine trap, to exercise recovery (tests only). */
  trapForTest(): void
}

/** The part of the boot options read from the app's stores and workspace. */
export type StoredState = { config: Record<string, string>; history: string[]; instructions?: string; notices: string[] }

const encoder = new TextEncoder()
/** Restarts allowed within 10 s before the loop gives up. */
const MAX_RESTARTS = 3

export async function createHostLoop(options: HostLoopOptions): Promise<HostLoop> {
  const now = options.now ?? (() => Date.now())
  const seed = options.seed ?? (() => Math.floor(Math.random() * 0x7fffffff))
  let boot = { ...options.boot }
  let engine: EngineInstance = options.engine ?? (await instantiateEngine(options.module))
  const requests = new Map<number, AbortController>()
  const execs = new Set<number>()
  const timers = createEngineTimers((id) => run((e) => e.timer(id, now())))
  const catalogs = new Set<AbortController>()
  let disposed = false
  let restarting = false
  let trapTimes: number[] = []

  const run = createFeedQueue({
    engine: () => engine,
    perform: (effect) => perform(effect),
    onTrap: (trap) => void restart(trap),
    stopped: () => disposed,
  })

  const perform = (effect: EngineEffect) => {
    switch (effect.kind) {
      case 'write':
        options.write(effect.bytes)
        return
      case 'model_request':
        startModelRequest(effect.id, effect.request)
        return
      case 'model_cancel':
        requests.get(effect.id)?.abort()
        requests.delete(effect.id)
        return
      case 'exec':
        startExec(effect.id, effect.request)
        return
      case 'exec_cancel':
        execs.delete(effect.id)
        options.workspace?.cancel(effect.id)
        return
      case 'timer_set':
        timers.set(effect.id, effect.delayMs)
        return
      case 'timer_cancel':
        timers.cancel(effect.id)
        return
      case 'event':
        options.onEvent(effect.event)
        return
      case 'exit':
        options.onExit(effect.code)
        return
      case 'action':
        options.onAction?.(effect.action)
        return
      case 'clipboard':
        options.onClipboard?.(effect.text)
        return
      case 'echo_hint':
        options.onEchoHint?.(effect.columns)
        return
      case 'config_set':
        options.onConfig?.(effect.id, effect.value)
        return
      case 'catalog_request':
        loadCatalog(effect.provider)
        return
      case 'history_append':
        options.sessions?.historyAppend(effect.value)
        return
      case 'history_clear':
        options.sessions?.historyClear()
        return
      case 'session_commit':
        commitSession(effect.bytes)
        return
      case 'session_list':
        void (options.sessions?.list() ?? Promise.resolve([])).then(
          (entries) => run((e) => e.sessionList(entries, now())),
          () => run((e) => e.sessionList([], now())),
        )
        return
      case 'session_open': {
        const id = effect.id
        void (options.sessions?.open(id) ?? Promise.resolve(null)).then(
          (found) => run((e) => (found ? e.session(found.bytes, found.readOnly, now()) : e.sessionEvent({ type: 'missing', id }, now()))),
          (error: unknown) => run((e) => e.sessionEvent({ type: 'commit_error', message: error instanceof Error ? error.message : String(error) }, now())),
        )
        return
      }
      case 'session_remove':
        options.sessions?.remove(effect.id)
        return
      case 'auth':
        options.onAuth?.(effect.action)
        return
    }
  }

  /** The last snapshot the engine asked to save: a restarted engine continues from it. */
  let lastSnapshot: Uint8Array | undefined = options.resume?.bytes
  const kept = reusedBuffer()
  const commitSession = (bytes: Uint8Array) => {
    if (!options.sessions) {
      lastSnapshot = bytes
      return
    }
    // The session host takes `bytes` (it moves them to the store); the loop keeps a copy.
    lastSnapshot = kept.copy(bytes)
    void options.sessions.commit(bytes).then((event) => run((e) => e.sessionEvent(event, now())))
  }

  // A request names its provider; one that does not goes to the provider active at boot.
  const providerNamed = (name: string | undefined) =>
    options.providers.find((p) => p.name === name) ?? options.providers.find((p) => p.name === options.boot.provider) ?? options.providers[0]!

  /** Fetches a provider's catalog (once per request from the engine) and hands it over. */
  const loadCatalog = (name: string) => {
    const provider = options.providers.find((p) => p.name === name)
    const answer = (models: ModelInfo[], error?: string) =>
      run((e) => e.catalog({ provider: name, models, ...(error ? { error } : {}) }, now()))
    if (!provider) return answer([], `no provider named ${name}`)
    if (!provider.listModels) return answer(provider.defaultModel ? [{ id: provider.defaultModel }] : [])
    const controller = new AbortController()
    catalogs.add(controller)
    provider.listModels(controller.signal).then(
      (models) => answer(models),
      (error: unknown) => answer([], error instanceof Error ? error.message : String(error)),
    ).finally(() => catalogs.delete(controller))
  }

  const startModelRequest = (id: number, request: Parameters<ModelProvider['stream']>[0]) => {
    const controller = new AbortController()
    requests.set(id, controller)
    const coalescer = createDeltaCoalescer((event) => {
      run((e) => e.modelEvent(id, event, now()))
      if (event.type === 'finish' || event.type === 'error') options.flushWrites?.()
    })
    controller.signal.addEventListener('abort', () => coalescer.cancel())
    const emit: Parameters<ModelProvider['stream']>[1] = (event) => {
      if (controller.signal.aborted || !requests.has(id)) return
      if (event.type === 'finish' || event.type === 'error') requests.delete(id)
      coalescer.push(event)
    }
    providerNamed(request.provider).stream(request, emit, controller.signal).then(
      () => {
        // A provider must end with finish or error; if it did not, the turn must not hang.
        if (requests.has(id) && !controller.signal.aborted) {
          emit({ type: 'error', code: ErrorCode.FX_MODEL_STREAM_TRUNCATED, message: 'The model stream ended without finishing.' })
        }
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error)
        emit({ type: 'error', code: ErrorCode.FX_MODEL_PROVIDER_FAILED, message: `The model request failed: ${message}` })
      },
    )
  }

  const startExec = (id: number, request: ExecRequest) => {
    const bridge = options.workspace
    execs.add(id)
    const finish = (result: ExecResult) => {
      if (!execs.delete(id)) return
      run((e) => e.execResult(id, result, now()))
    }
    if (!bridge) {
      finish({ stdout: '', stderr: 'fxterm: no workspace is connected', exitCode: 127 })
      return
    }
    bridge.exec(id, request).then(finish, (error: unknown) => {
      finish({ stdout: '', stderr: `fxterm: the workspace failed: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 })
    })
  }

  const cancelAll = () => {
    for (const c of requests.values()) c.abort()
    requests.clear()
    for (const id of execs) options.workspace?.cancel(id)
    execs.clear()
    timers.clear()
    for (const c of catalogs) c.abort()
    catalogs.clear()
  }

  const restart = async (trap: EngineTrap) => {
    if (restarting) return
    restarting = true
    cancelAll()
    // Below the dead engine's footer, on fresh rows (erase down: the footer may be under us).
    options.write(encoder.encode(`\r\n\x1b[J\x1b[31m✗ fxterm's engine stopped on an internal error (${sanitize(trap.message)}).\x1b[0m\r\n`))
    options.onEvent({ type: 'engine_trap', message: trap.message })
    const recent = (trapTimes = [...trapTimes.filter((t) => now() - t < 10_000), now()])
    if (recent.length > MAX_RESTARTS) {
      // The same input keeps killing it: stop here rather than loop.
      options.write(encoder.encode('\x1b[31m✗ It keeps failing, so it was not restarted again. Reload the page.\x1b[0m\r\n'))
      disposed = true
      return
    }
    options.write(encoder.encode('Restarting it…\r\n'))
    try {
      engine = await instantiateEngine(options.module)
      restarting = false
      const snapshot = lastSnapshot
      boot = { ...boot, notices: [snapshot ? 'The engine restarted after an internal error; the conversation continues from its last save.' : 'The engine restarted after an internal error; the conversation before it is gone.'] }
      run((e) => e.boot({ ...boot, seed: seed() }, now()))
      if (snapshot) run((e) => e.session(snapshot, false, now()))
      options.onRestarted?.()
    } catch (error) {
      options.write(encoder.encode(`\x1b[31m✗ The engine could not restart: ${sanitize(String(error))}. Reload the page.\x1b[0m\r\n`))
    }
  }

  /**
   * After a resume, in a task of its own (its frame has gone to the page): room for the commits to
   * come, in the engine's output, the copy kept for a restart and the buffers snapshots are copied
   * into (snapshot-buffers.ts). Made in the first commit, that was ~4.7 MB of new memory three
   * times over, page faults in the middle of a keystroke's answer.
   */
  const prepareForCommits = (size: number) =>
    setTimeout(() => {
      if (disposed) return
      run((e) => (e.prepare(size), []))
      kept.reserve(size)
      reserveSpares(size)
    }, 0)

  run((e) => e.boot({ ...boot, seed: seed() }, now()))
  const resume = options.resume
  if (resume?.decoded && options.engine) run((e) => e.restoreDecoded(resume.readOnly, now()))
  else if (resume) run((e) => e.session(resume.bytes, resume.readOnly, now()))
  if (resume && options.sessions) prepareForCommits(resume.bytes.byteLength)

  return {
    keys: (bytes) => run((e) => e.keys(bytes, now())),
    resize: (cols, rows) => {
      boot = { ...boot, cols, rows }
      run((e) => e.resize(cols, rows, now()))
    },
    notice: (notice) => run((e) => e.notice(notice, now())),
    configChanged: (id, value) => {
      boot = { ...boot, config: { ...boot.config, [id]: value } }
      run((e) => e.configChanged(id, value, now()))
    },
    restore: (stored, resume) => {
      // A restarted engine boots with all of it at once.
      const { restorePending: _, ...rest } = boot
      boot = { ...rest, config: stored.config, history: stored.history, notices: [...(boot.notices ?? []), ...stored.notices] }
      if (stored.instructions) boot.instructions = stored.instructions
      run((e) => e.restore(stored, now()))
      if (resume) {
        lastSnapshot = resume.bytes
        run((e) => e.session(resume.bytes, resume.readOnly, now()))
      }
    },
    dispose: () => {
      cancelAll()
      disposed = true
    },
    authState: (state) => run((e) => e.auth(state, now())),
    trapForTest: () => run((e) => e.trap()),
  }
}

/** Strips control characters from a trap message before it reaches the terminal. */
function sanitize(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').slice(0, 200)
}

/**
 * A copy of the latest bytes in one buffer that later copies reuse while they fit. A fresh 4 MB
 * buffer per commit cost 4-7 ms in the engine's worker, most of it the page faults of memory
 * never touched; copying into memory already touched takes ~1 ms.
 */
function reusedBuffer(): { copy(bytes: Uint8Array): Uint8Array; reserve(size: number): void } {
  let buffer = new Uint8Array(0)
  // A quarter to spare: a session grows by a turn at a time.
  const grow = (size: number) => (buffer = new Uint8Array(size + (size >>> 2)))
  return {
    copy(bytes) {
      if (bytes.byteLength > buffer.byteLength) grow(bytes.byteLength)
      buffer.set(bytes)
      return buffer.subarray(0, bytes.byteLength)
    },
    reserve(size) {
      // Written once now, so its pages are in memory before a commit copies into them.
      if (size > buffer.byteLength) grow(size).fill(0)
    },
  }
}
