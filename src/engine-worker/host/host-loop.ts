/**
 * The host loop: the terminal's front end of the engine host core (engine-host-core.ts). It
 * passes the terminal's inputs in, performs what only a terminal does (writes, sessions and
 * history, catalogs, sign-in, host actions), and joins text deltas once per frame. A trap in the
 * engine is reported in the terminal, and a fresh engine continues from the last save.
 */
import type { ModelInfo, ModelProvider } from '../../shared/protocol/model-events.ts'
import type { ExecResult } from '../../shared/protocol/workspace.ts'
import type { AuthAction, AuthDisplayState, BootOptions, BootProvider, ExecRequest, HostAction, HostNotice, SessionEvent, SessionListEntry } from '../../shared/messages/engine-frames.ts'
import { AGENT_SUB } from '../../shared/messages/engine-frames.ts'
import { createEngineHostCore } from './engine-host-core.ts'
import type { EngineInstance, EngineTrap } from './engine-instance.ts'
import { FRAME_MS } from './frame-pacer.ts'
import { reserveSpares } from '../../shared/snapshot-buffers.ts'
import type { WorkspaceOpAnswer, WorkspaceOpRequest } from '../../shared/protocol/workspace-ops.ts'
import { ModelCatalogError } from '../providers/list-models.ts'
import type { StoredState } from '../../shared/messages/worker-api.ts'
export type { StoredState } from '../../shared/messages/worker-api.ts'

export type ExecBridge = {
  exec(id: number, request: ExecRequest): Promise<ExecResult>
  cancel(id: number): void
  /** A workspace op (file tools, /diff, /undo); absent: the workspace has none. */
  workspaceOp?(request: WorkspaceOpRequest): Promise<WorkspaceOpAnswer | null>
}

export type HostLoopOptions = {
  module: WebAssembly.Module
  boot: Omit<BootOptions, 'seed'>
  /** The model providers; a request goes to the one it names (else the first). */
  providers: ModelProvider[]
  /** How long a model stream may go without progress (model-requests.ts; default 60 s). */
  streamIdleTimeoutMs?: number
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
  onAuth?(action: AuthAction, provider?: string): void
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
  /** Text sent as a prompt (never keys, so never a slash command or an answer to a question). */
  prompt(text: string): void
  resize(cols: number, rows: number): void
  /** Shows a message from the host in the transcript. */
  notice(notice: HostNotice): void
  /** Cancels every request, command and timer in flight. */
  dispose(): void
  /** Shows a sign-in or key state (never a token or a key). */
  authState(state: AuthDisplayState): void
  /** The names of every provider requests can be routed to. */
  providerNames(): string[]
  /** Providers added after boot: the host loop routes to them, the engine lists them (input 20) and switches to `use`. */
  addProviders(added: Array<{ provider: ModelProvider; entry: BootProvider }>, use?: string): void
  /** A provider /provider remove dropped: no longer routed to, nor booted with after a restart. */
  removeProvider(name: string): void
  /** A setting another tab saved: the engine applies it (nothing is written back). */
  configChanged(id: string, value: string): void
  /**
   * What the stores held, after a boot with `restorePending` (start-up does not wait for them):
   * settings, history, instructions and notices, then the session to resume, if any.
   */
  restore(stored: StoredState, resume?: { bytes: Uint8Array; readOnly: boolean }): void
}

const encoder = new TextEncoder()
/** Restarts allowed within 10 s before the loop gives up. */
const MAX_RESTARTS = 3

export async function createHostLoop(options: HostLoopOptions): Promise<HostLoop> {
  const now = options.now ?? (() => Date.now())
  const seed = options.seed ?? (() => Math.floor(Math.random() * 0x7fffffff))
  let boot = { ...options.boot }
  const catalogs = new Set<AbortController>()
  let trapTimes: number[] = []
  /** The last snapshot the engine asked to save: a restarted engine continues from it. */
  let lastSnapshot: Uint8Array | undefined = options.resume?.bytes
  const kept = reusedBuffer()
  const bridge = options.workspace

  const core = await createEngineHostCore({
    module: options.module,
    ...(options.engine ? { engine: options.engine } : {}),
    providers: () => options.providers,
    ...(options.boot.provider !== undefined ? { defaultProvider: options.boot.provider } : {}),
    textIntervalMs: FRAME_MS,
    ...(options.streamIdleTimeoutMs !== undefined ? { idleTimeoutMs: options.streamIdleTimeoutMs } : {}),
    ...(bridge
      ? {
          exec: (id: number, request: ExecRequest, signal: AbortSignal) => {
            signal.addEventListener('abort', () => bridge.cancel(id), { once: true })
            return bridge.exec(id, request)
          },
        }
      : {}),
    // A response's last lines must not wait for a frame that has no reason to come.
    onModelEnd: () => options.flushWrites?.(),
    onTrap: (trap) => void restart(trap),
    now,
    effects: {
      write: (e) => options.write(e.bytes),
      event: (e) => options.onEvent(e.event),
      exit: (e) => options.onExit(e.code),
      action: (e) => options.onAction?.(e.action),
      clipboard: (e) => options.onClipboard?.(e.text),
      echo_hint: (e) => options.onEchoHint?.(e.columns),
      config_set: (e) => options.onConfig?.(e.id, e.value),
      catalog_request: (e) => loadCatalog(e.provider),
      history_append: (e) => options.sessions?.historyAppend(e.value),
      history_clear: () => options.sessions?.historyClear(),
      session_commit: (e) => commitSession(e.bytes),
      session_list: () =>
        void (options.sessions?.list() ?? Promise.resolve([])).then(
          (entries) => run((e) => e.sessionList(entries, now())),
          () => run((e) => e.sessionList([], now())),
        ),
      session_open: ({ id }) =>
        void (options.sessions?.open(id) ?? Promise.resolve(null)).then(
          (found) => run((e) => (found ? e.session(found.bytes, found.readOnly, now()) : e.sessionEvent({ type: 'missing', id }, now()))),
          (error: unknown) => run((e) => e.sessionEvent({ type: 'commit_error', message: error instanceof Error ? error.message : String(error) }, now())),
        ),
      session_remove: (e) => options.sessions?.remove(e.id),
      auth: (e) => options.onAuth?.(e.action, e.provider),
      workspace_op: (e) => workspaceOp(e.id, e.request),
    },
  })
  const run = core.feed

  /** Runs a workspace op; the answer goes back by its id (id 0 wants none). */
  const workspaceOp = (id: number, request: WorkspaceOpRequest) => {
    const op = bridge?.workspaceOp?.(request) ?? Promise.resolve(null)
    void op.then(
      (answer) => {
        if (id !== 0) run((e) => e.workspaceAnswer(id, answer ?? { ok: false, result: 'The workspace cannot do that.' }, now()))
      },
      (error: unknown) => {
        if (id !== 0) run((e) => e.workspaceAnswer(id, { ok: false, result: `The workspace failed: ${error instanceof Error ? error.message : String(error)}` }, now()))
      },
    )
  }

  const commitSession = (bytes: Uint8Array) => {
    if (!options.sessions) {
      lastSnapshot = bytes
      return
    }
    // The session host takes `bytes` (it moves them to the store); the loop keeps a copy.
    lastSnapshot = kept.copy(bytes)
    void options.sessions.commit(bytes).then((event) => run((e) => e.sessionEvent(event, now())))
  }

  /** Fetches a provider's catalog (once per request from the engine) and hands it over. */
  const loadCatalog = (name: string) => {
    const provider = options.providers.find((p) => p.name === name)
    const answer = (models: ModelInfo[], error?: string, unauthorized = false) =>
      run((e) => e.catalog({ provider: name, models, ...(error ? { error } : {}), ...(unauthorized ? { unauthorized } : {}) }, now()))
    if (!provider) return answer([], `no provider named ${name}`)
    if (!provider.listModels) return answer(provider.defaultModel ? [{ id: provider.defaultModel }] : [])
    const controller = new AbortController()
    catalogs.add(controller)
    provider.listModels(controller.signal).then(
      (models) => answer(models),
      (error: unknown) => answer([], error instanceof Error ? error.message : String(error), error instanceof ModelCatalogError && (error.status === 401 || error.status === 403)),
    ).finally(() => catalogs.delete(controller))
  }

  const cancelCatalogs = () => {
    for (const c of catalogs) c.abort()
    catalogs.clear()
  }

  /** A trap: the core has cancelled what was in flight; a fresh engine continues from the last save. */
  const restart = async (trap: EngineTrap) => {
    cancelCatalogs()
    // Below the dead engine's footer, on fresh rows (erase down: the footer may be under us).
    options.write(encoder.encode(`\r\n\x1b[J\x1b[31m✗ fxterm's engine stopped on an internal error (${sanitize(trap.message)}).\x1b[0m\r\n`))
    options.onEvent({ type: 'engine_trap', message: trap.message })
    const recent = (trapTimes = [...trapTimes.filter((t) => now() - t < 10_000), now()])
    if (recent.length > MAX_RESTARTS) {
      // The same input keeps killing it: stop here rather than loop.
      options.write(encoder.encode('\x1b[31m✗ It keeps failing, so it was not restarted again. Reload the page.\x1b[0m\r\n'))
      return
    }
    options.write(encoder.encode('Restarting it…\r\n'))
    try {
      await core.restart()
    } catch (error) {
      options.write(encoder.encode(`\x1b[31m✗ The engine could not restart: ${sanitize(String(error))}. Reload the page.\x1b[0m\r\n`))
      return
    }
    const snapshot = lastSnapshot
    boot = { ...boot, notices: [snapshot ? 'The engine restarted after an internal error; the conversation continues from its last save.' : 'The engine restarted after an internal error; the conversation before it is gone.'] }
    run((e) => e.boot({ ...boot, seed: seed() }, now()))
    if (snapshot) run((e) => e.session(snapshot, false, now()))
    options.onRestarted?.()
  }

  /**
   * After a resume, in a task of its own (its frame has gone to the page): room for the commits to
   * come, in the copy kept for a restart and the buffers snapshots are copied into
   * (snapshot-buffers.ts), their pages written now rather than in the middle of a keystroke's
   * answer.
   */
  let disposed = false
  const prepareForCommits = (size: number) =>
    setTimeout(() => {
      if (disposed) return
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
    prompt: (text) => run((e) => e.agent(AGENT_SUB.prompt, text, now())),
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
      disposed = true
      cancelCatalogs()
      core.dispose()
    },
    authState: (state) => run((e) => e.auth(state, now())),
    providerNames: () => options.providers.map((p) => p.name),
    addProviders: (added, use) => {
      for (const { provider, entry } of added) {
        const at = options.providers.findIndex((p) => p.name === provider.name)
        if (at >= 0) options.providers[at] = provider
        else options.providers.push(provider)
        // A restarted engine boots with them.
        const listed = (boot.providers ?? []).filter((p) => p.name !== entry.name)
        boot = { ...boot, providers: [...listed, entry] }
      }
      run((e) => e.providers(added.map((a) => a.entry), now(), use))
    },
    removeProvider: (name) => {
      const at = options.providers.findIndex((p) => p.name === name)
      if (at >= 0) options.providers.splice(at, 1)
      boot = { ...boot, providers: (boot.providers ?? []).filter((p) => p.name !== name) }
    },
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
