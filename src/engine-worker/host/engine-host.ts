/**
 * The engine worker's host, in one script with the worker's entry (engine-worker.ts): loads
 * engine.wasm, picks the model provider (worker-providers.ts), and runs the host loop. Everything
 * the engine asks for happens here (fetch and SSE parsing, timers), except command execs, which
 * go to the workspace through the main thread.
 */
import * as Comlink from 'comlink'
import { ErrorCode, fxFailure } from '../../shared/errors.ts'
import type { HostNotice } from '../../shared/messages/engine-frames.ts'
import { createWorkerProviders, providerAddresses, type WorkerProviders } from './worker-providers.ts'
import { createHostLoop, type HostLoop, type SessionHost } from './host-loop.ts'
import { createOutputBatcher } from './output-batcher.ts'
import { createWorkerAuth, type WorkerAuth } from './worker-auth.ts'
import { takeStartSession } from './worker-start-reads.ts'
import { preloadEngine } from './preload-engine.ts'
import { markPhase, startUpMarks } from '../../shared/start-up-timeline.ts'
import type { EngineInstance } from './engine-instance.ts'
import type { EngineWorkerApi, HostCallbacks, ResumeSession, StartResult, WorkerStartConfig } from '../../shared/messages/worker-api.ts'
import { createSessionWrites, type SessionWrites } from './worker-session-writes.ts'

let loop: HostLoop | null = null
/** `keys()` calls the engine has been fed, told with every frame (HostCallbacks.write). */
let keysSeen = 0
let pending: Array<(l: HostLoop) => void> = []
/** Sign-in: runs /login, /logout and /key; holds tokens and keys (never given to the engine). */
let auth: WorkerAuth | null = null
/** The model providers (worker-providers.ts); made by `start`. */
let models: WorkerProviders | null = null
const keyText = new TextDecoder()
/** Posts the output gathered so far; resolves once the page has handed it to the terminal. */
let flushOutput: () => Promise<void> = () => Promise.resolve()
/** Where the engine's snapshots are written (worker-session-writes.ts); made by `start`. */
let writes: SessionWrites | null = null
/** The page's `sessionsWrittenHere`, should it come before `start` made `writes`. */
let writtenHere: { namespace: string | undefined } | null | undefined

/**
 * Sessions and prompt history go to the page, which owns the stores, except the snapshots written
 * here to fxterm's own session store (worker-session-writes.ts). A snapshot for the page is moved
 * there (the host loop keeps its own copy to restore a restarted engine), so the page's main
 * thread, where typing is echoed, never copies megabytes itself.
 */
function sessionHost(host: Comlink.Remote<HostCallbacks>, sessions: SessionWrites): SessionHost {
  return {
    commit: (bytes) => sessions.commit(bytes),
    list: () => host.sessionList(),
    open: async (id) => {
      const opened = await host.sessionOpen(id)
      if (opened) sessions.opened(id, opened.revision)
      return opened && { bytes: opened.bytes, readOnly: opened.readOnly }
    },
    remove: (id) => {
      sessions.removed(id)
      void host.sessionRemove(id)
    },
    historyAppend: (value) => void host.historyAppend(value),
    historyClear: () => void host.historyClear(),
  }
}

type Opened = { resume?: { bytes: Uint8Array; readOnly: boolean; decoded?: boolean }; engine?: EngineInstance }

/**
 * `resume` with its bytes: those this worker read at start-up when it names them by id, with the
 * engine that already decoded them (worker-decode-ahead.ts) when there is one.
 */
async function openResume(resume: ResumeSession | undefined): Promise<Opened> {
  if (!resume) return {}
  if (resume.stored) writes?.opened(resume.stored.id, resume.stored.revision)
  if ('bytes' in resume) return { resume }
  const read = await takeStartSession(resume.prefetchedId)
  if (!read) return {}
  return { resume: { bytes: read.bytes, readOnly: resume.readOnly, decoded: read.engine !== null }, ...(read.engine ? { engine: read.engine } : {}) }
}

async function compile(wasm: WorkerStartConfig['wasm']): Promise<WebAssembly.Module> {
  if (wasm instanceof WebAssembly.Module) return wasm
  if (wasm instanceof ArrayBuffer) return WebAssembly.compile(wasm)
  // Compiled once per URL: the start-up reads may have begun it (worker-decode-ahead.ts).
  return preloadEngine(String(wasm))
}

const api: EngineWorkerApi = {
  async start(config: WorkerStartConfig, hostProxy: HostCallbacks): Promise<StartResult> {
    const host = hostProxy as unknown as Comlink.Remote<HostCallbacks>
    writes = createSessionWrites(host, config.sessionsHere === true)
    if (writtenHere !== undefined) writes.decide(writtenHere)
    markPhase('engine-boot', 'start')
    let module: WebAssembly.Module
    try {
      module = await compile(config.wasm)
    } catch (error) {
      return fxFailure(ErrorCode.FX_ENGINE_LOAD_FAILED, error instanceof Error ? error.message : String(error))
    }
    const addresses = providerAddresses()
    auth = createWorkerAuth(config, host, addresses)
    // The link's question may be asked before the engine is up: it is said once it is.
    const say = (notice: HostNotice) => (loop ? loop.notice(notice) : pending.push((l) => l.notice(notice)))
    models = createWorkerProviders({ config, host, keys: auth.keys, addresses, say })
    const { providers, notice } = models
    auth.addTo(providers)
    const provider = models.active()
    const model = provider.defaultModel
    // The echo hint travels with the output it describes, so the page never applies it early.
    let echoColumns = 0
    let lastWrite: Promise<void> = Promise.resolve()
    const batcher = createOutputBatcher((bytes) => {
      lastWrite = host.write(Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]), echoColumns, keysSeen)
    })
    flushOutput = () => {
      batcher.flush()
      return lastWrite.catch(() => {})
    }
    const opened = await openResume(config.resume)
    loop = await createHostLoop({
      module,
      ...(config.streamIdleTimeoutMs !== undefined ? { streamIdleTimeoutMs: config.streamIdleTimeoutMs } : {}),
      boot: {
        cols: config.cols,
        rows: config.rows,
        provider: provider.name,
        providers: models.bootList(),
        model,
        config: config.config ?? {},
        ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
        tools: config.workspaceCwd !== null,
        cwd: config.workspaceCwd ?? '/',
        notices: [...config.notices, ...(notice ? [notice] : []), ...(auth.notice ? [auth.notice] : [])],
        ...auth.bootFields,
        args: config.args,
        ...(config.permission ? { permission: config.permission } : {}),
        ...(config.instructions ? { instructions: config.instructions } : {}),
        ...(config.toolDescription ? { toolDescription: config.toolDescription } : {}),
        ...(config.fileTools ? { fileTools: true } : {}),
        sessions: config.sessions,
        history: config.history,
        ...(config.restorePending ? { restorePending: true } : {}),
      },
      sessions: sessionHost(host, writes),
      ...opened,
      providers,
      workspace: config.workspaceCwd === null ? null : { exec: (id, request) => host.exec(id, request), cancel: (id) => void host.cancelExec(id), workspaceOp: (request) => host.workspaceOp(request) },
      write: (bytes) => batcher.push(bytes),
      flushWrites: () => batcher.flush(),
      onEvent: (event) => void host.event(event),
      onAction: (action) => {
        if (action.action === 'provider_add') {
          if (loop) models?.add(action, loop)
        } else if (action.action === 'provider_remove') models?.remove(action.name, loop)
        else void host.action(action)
      },
      onClipboard: (text) => void host.clipboard(text),
      onConfig: (id, value) => void host.config(id, value),
      onAuth: (action, provider) => auth?.controller.handle(action, provider),
      onRestarted: () => auth?.engineRestarted(),
      onEchoHint: (columns) => {
        echoColumns = columns
      },
      onExit: (code) => {
        batcher.flush()
        void host.exit(code)
      },
    })
    for (const fn of pending) fn(loop)
    pending = []
    auth.attach(loop)
    markPhase('engine-boot', 'end')
    // This worker's start-up marks, for the page's timeline (start-up-timeline.ts).
    return { ok: true, provider: provider.label, model, timeline: startUpMarks() }
  },
  keys(bytes) {
    // While /key is typed, the keys go to the sign-in side only: the engine never sees a key.
    // While a link's server is asked about, they are the answer.
    if (auth?.captureKeys(bytes) || models?.consent?.captureKeys(keyText.decode(bytes))) {
      keysSeen++
      return
    }
    // Counted once fed: the engine's output for them is then in the batcher, so a frame posted
    // later has seen them (the page redraws its echo of the ones it has not, local-echo.ts).
    const feed = (l: HostLoop) => {
      l.keys(bytes)
      keysSeen++
    }
    if (loop) feed(loop)
    else pending.push(feed)
  },
  prompt(text) {
    if (loop) loop.prompt(text)
    else pending.push((l) => l.prompt(text))
  },
  async resize(cols, rows) {
    if (!loop) {
      pending.push((l) => l.resize(cols, rows))
      return
    }
    loop.resize(cols, rows)
    // Answer only once the frame drawn for this size is in the terminal's queue: the page holds
    // its next resize until then, so no frame is ever parsed at a size it was not drawn for.
    await flushOutput()
  },
  notice(notice) {
    if (loop) loop.notice(notice)
    else pending.push((l) => l.notice(notice))
  },
  configChanged(id, value) {
    // Another tab added a server: offer it here too. The engine keeps no such setting itself.
    const apply = (l: HostLoop) => (id === 'providers' ? models?.addedElsewhere(value, l) : l.configChanged(id, value))
    if (loop) apply(loop)
    else pending.push(apply)
  },
  async restore(stored, session) {
    // The engine is booted already: it decodes the bytes itself (an engine that decoded them
    // ahead, if any, goes unused).
    const { resume } = await openResume(session)
    const plain = resume ? { bytes: resume.bytes, readOnly: resume.readOnly } : undefined
    const restoreAll = (l: HostLoop) => {
      // Servers added on an earlier visit come first: the stored `provider` may name one.
      models?.addedBefore(stored.config, l)
      l.restore(stored, plain)
    }
    if (loop) restoreAll(loop)
    else pending.push(restoreAll)
    auth?.restored()
  },
  sessionsWrittenHere(where) {
    if (writes) writes.decide(where)
    else writtenHere = where
  },
  signedOutElsewhere() {
    auth?.signedOutElsewhere()
  },
  signedInElsewhere() {
    auth?.signedInElsewhere()
  },
  dispose() {
    loop?.dispose()
    loop = null
  },
}

/** Serves the page's calls (EngineWorkerApi) on `endpoint`. */
export function exposeEngine(endpoint: Comlink.Endpoint): void {
  Comlink.expose(api, endpoint)
}
