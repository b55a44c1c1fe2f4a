/**
 * createFxTerminal: the public entry. Starts the engine worker, connects the terminal adapter
 * (keys → worker, worker output → terminal), bridges command execs to the app's workspace and
 * model requests to the app's fetch when one is given.
 */
import * as Comlink from 'comlink'
import type { WorkspaceAdapter, WorkspaceExtras } from '../../shared/protocol/workspace.ts'
import type { EngineWorkerApi, HostCallbacks, ResumeSession } from '../../shared/messages/worker-api.ts'
import { connectWorkspace } from './connect-workspace.ts'
import { createFetchBridge } from './fetch-bridge.ts'
import { attachFileDrop } from './file-drop.ts'
import { ErrorCode, FxError } from '../../shared/errors.ts'
import { createLocalEcho } from './local-echo.ts'
import { startTypeAhead, type TypeAhead } from './type-ahead.ts'
import { loadAgentsInstructions } from './load-agents.ts'
import { performHostAction, saveDownload } from './host-actions.ts'
import { demoTapeUrl, engineWasmUrl } from '../../engine-worker/host/engine-url.ts'
import { spawnEngineWorker } from './spawn-engine-worker.ts'
import { createWorkspaceBridge } from './workspace-bridge.ts'
import { createConfigBridge } from './config-bridge.ts'
import { createHistoryBridge } from './history-bridge.ts'
import { createSessionBridge, resumeArgument } from './session-bridge.ts'
import { storedAtStart, storedStartFields } from './page-stored-at-start.ts'
import { createTabSync, type TabSync } from './tab-sync.ts'
import type { ConfigStore, SessionStoreInEngineWorker } from '../../shared/stores/types.ts'
import { createPageAuth } from './page-auth.ts'
import type { FxTerminal, FxTerminalOptions, FxTerminalStartOptions } from './fx-terminal-options.ts'
import { adoptMarks, markPhase, markStartUp } from '../../shared/start-up-timeline.ts'

export type { FxTerminal, FxTerminalOptions, FxTerminalStartOptions }

/** Pages that want the fastest start call it before building their terminal and pass `createWorker: () => worker`. */
export { spawnEngineWorker }

const encoder = new TextEncoder()
/** How long a type-ahead start waits for the stores before the engine boots without them. */
const STORES_WAIT_MS = 250
/** The largest frame written as a key's answer (writeNow); bigger ones are output, queued as usual. */
const KEY_FRAME_BYTES = 8 * 1024

function absolute(url: string): string {
  return new URL(url, document.baseURI).href
}

/** `store` whose successful `set` is also told to the other tabs. */
function broadcastSaves(store: ConfigStore, tabs: TabSync): ConfigStore {
  return {
    get: (id) => store.get(id),
    set: async (id, value) => {
      await store.set(id, value)
      tabs.post({ type: 'config', id, value })
    },
  }
}

/** Starts fxterm in a terminal. */
export function createFxTerminal(options: FxTerminalOptions): FxTerminal {
  return startFxTerminal(options)
}

/** {@link createFxTerminal} with the static page's start-up seams (fx-terminal-options.ts); not public. */
export function startFxTerminal(options: FxTerminalStartOptions): FxTerminal {
  const term = options.terminal
  const { workspace, notice } = connectWorkspace(options.workspace)
  const notices = notice ? [notice] : []
  const extras = workspace as (WorkspaceAdapter & WorkspaceExtras) | null
  const execBridge = workspace ? createWorkspaceBridge(workspace) : null
  const fetchBridge = options.fetch ? createFetchBridge(options.fetch) : null

  const worker = options.createWorker?.() ?? spawnEngineWorker()
  const remote = Comlink.wrap<EngineWorkerApi>(worker)
  let resolveExited!: (code: number) => void
  const exited = new Promise<number>((resolve) => (resolveExited = resolve))
  let ended = false
  const unsubscribers: Array<() => void> = []
  let firstOutput = ''

  const end = (code: number) => {
    if (ended) return
    ended = true
    for (const off of unsubscribers) off()
    execBridge?.cancelAll()
    resolveExited(code)
  }

  const progress = extras?.onProgress?.((line, kind) => void remote.notice({ text: line, level: kind === 'activity' ? 'activity' : 'warning' }))
  if (progress) unsubscribers.push(progress)
  const report = (event: { type: string } & Record<string, unknown>, notice?: string) => {
    options.onEvent?.(event)
    if (notice) void remote.notice({ text: notice, level: 'warning' })
  }
  const namespace = options.namespace ?? 'fxterm'
  const tabs = createTabSync(namespace)
  unsubscribers.push(() => tabs.close())
  const configBridge = createConfigBridge(options.configStore && broadcastSaves(options.configStore, tabs), report)
  const historyBridge = createHistoryBridge(options.promptHistoryStore, workspace?.info.root ?? '/', report)
  const sessionBridge = options.sessionStore
    ? createSessionBridge({
        store: options.sessionStore,
        namespace,
        report,
        onListChanged: () => tabs.post({ type: 'sessions_changed' }),
        // The workspace keeps its files per session (createBashWorkspace's `persist`).
        onSession: (id, how) => void extras?.useSession?.(id, how),
        onRemoved: (id) => void extras?.forgetSession?.(id),
        ...(options.sessionLocks ? { sessionLocks: options.sessionLocks } : {}),
      })
    : null
  if (sessionBridge) unsubscribers.push(() => sessionBridge.dispose())
  // fxterm's IndexedDB store served by the engine worker: that worker writes the snapshots itself
  // (worker-session-writes.ts) once the probe says IndexedDB works; this page hears a note per write.
  const servedStore = options.sessionStore as (NonNullable<typeof options.sessionStore> & Partial<SessionStoreInEngineWorker>) | undefined
  const sessionsHere = typeof servedStore?.writtenInEngineWorker === 'function'
  if (sessionsHere) {
    void servedStore!.writtenInEngineWorker!().then(
      (where) => remote.sessionsWrittenHere(where),
      () => remote.sessionsWrittenHere(null),
    )
  }
  unsubscribers.push(
    tabs.onMessage((message) => {
      if (message.type === 'config') void remote.configChanged(message.id, message.value)
      else if (message.type === 'sessions_changed') options.onEvent?.({ type: 'session.list_changed' })
      else if (message.type === 'signed_out') void remote.signedOutElsewhere()
      else if (message.type === 'signed_in') void remote.signedInElsewhere()
    }),
  )

  /** Inputs the engine had seen by its last frame: a frame that sees more answers keys. */
  let lastKeysSeen = 0
  const host: HostCallbacks = {
    ...createPageAuth(options, tabs),
    config: (id, value) => configBridge.save(id, value),
    write: (bytes, echoColumns, keysSeen) => {
      const first = !firstOutput
      if (first) markStartUp((firstOutput = 'first-output'))
      // The engine's first frame (its banner, or a resumed transcript) is what the page waits to
      // show: parsed at once, not after the other start-up tasks queued before xterm.js's timer.
      // (After what wipes the provisional composer, parsed at once too so nothing is queued.)
      if (typeAhead) writeNow(typeAhead.takeOver(bytes))
      typeAhead = null
      // A frame that answers keys is small: parsed at once, it never holds up the next echo.
      if (first || (keysSeen !== undefined && keysSeen > lastKeysSeen && bytes.length <= KEY_FRAME_BYTES)) writeNow(bytes)
      else term.write(bytes)
      lastKeysSeen = keysSeen ?? lastKeysSeen
      localEcho.setBudget(echoColumns, keysSeen)
    },
    event: (event) => {
      if (event.type === 'announce' && typeof event['text'] === 'string') term.announce?.(event['text'])
      options.onEvent?.(event)
    },
    exit: (code) => end(code),
    exec: (id, request) => execBridge ? execBridge.exec(id, request) : Promise.resolve({ stdout: '', stderr: 'fxterm: no workspace', exitCode: 127 }),
    cancelExec: (id) => execBridge?.cancel(id),
    // A workspace op (file tools, /diff, /undo) goes to the workspace as it is; never rejects.
    workspaceOp: (request) => (extras?.workspaceOp ? extras.workspaceOp(request).catch(() => null) : Promise.resolve(null)),
    fetch: (url, init, onChunk, requestId) =>
      fetchBridge ? fetchBridge.fetch(url, init, onChunk, requestId) : Promise.resolve({ ok: false as const, message: 'no fetch option' }),
    abortFetch: (requestId) => fetchBridge?.abort(requestId),
    action: (action) => {
      if (action.action === 'a11y_on' || action.action === 'a11y_off') term.setScreenReaderMode?.(action.action === 'a11y_on')
      else void performHostAction(action, extras, saveDownload).then((notice) => remote.notice(notice))
    },
    sessionCommit: (bytes) => sessionBridge ? sessionBridge.commit(bytes) : Promise.resolve({ type: 'commit_ok' as const }),
    sessionTaken: (take) => sessionBridge?.taken(take),
    sessionWritten: (note) => sessionBridge?.written(note),
    sessionList: () => sessionBridge ? sessionBridge.list() : Promise.resolve([]),
    // Bytes go to the worker as copies, never transferred: they may be the app's own buffer.
    sessionOpen: (id) => (sessionBridge ? sessionBridge.open(id) : Promise.resolve(null)),
    sessionRemove: (id) => void sessionBridge?.remove(id),
    historyAppend: (value) => historyBridge.append(value),
    historyClear: () => historyBridge.clear(),
    clipboard: (text) => copyToClipboard(text),
  }
  function copyToClipboard(text: string): void {
    const clipboard = options.clipboard ?? globalThis.navigator?.clipboard
    if (!clipboard) {
      void remote.notice({ text: 'There is no clipboard here, so nothing was copied.', level: 'warning' })
      return
    }
    clipboard.writeText(text).catch((error: unknown) => {
      void remote.notice({ text: `Copying failed: ${error instanceof Error ? error.message : String(error)}`, level: 'warning' })
    })
  }
  if (term.onCopy) unsubscribers.push(term.onCopy(copyToClipboard))
  if (options.dropTarget && extras) {
    unsubscribers.push(attachFileDrop(options.dropTarget, extras, (notice) => void remote.notice(notice)))
  }

  const writeNow = (data: Uint8Array | string) => (term.writeNow ? term.writeNow(data) : term.write(data))
  const localEcho = createLocalEcho(writeNow)
  let typeAhead: TypeAhead | null = options.typeAhead
    ? startTypeAhead({ cols: term.cols, rows: term.rows, namespace, write: (text) => term.write(text) })
    : null
  if (typeAhead) localEcho.setBudget(typeAhead.echoColumns)
  unsubscribers.push(
    term.onData((data) => {
      typeAhead?.keyTyped()
      localEcho.keyTyped(data)
      void remote.keys(encoder.encode(data))
    }),
  )
  let resizing: Promise<void> = Promise.resolve()
  const resize = (cols: number, rows: number) => {
    resizing = remote.resize(cols, rows).catch(() => {})
  }
  unsubscribers.push(term.onResize(({ cols, rows }) => resize(cols, rows)))

  const wasm = options.wasm ?? engineWasmUrl()
  const wasmUrl = typeof wasm === 'string' || wasm instanceof URL ? absolute(String(wasm)) : null
  // A URL is compiled by the engine worker. A streaming compile is fed on the thread that asked
  // for it, and this one is busy opening the terminal then: its chunks were fed late, in the same
  // moments as the first keys' echo (A/B, 12 loads each, twice: the element 407 → 378 ms and
  // 411 → 376 ms to interactive; the page 368 → 349 ms and 395 → 374 ms).
  const wasmInput: Promise<WebAssembly.Module | ArrayBuffer | string> = Promise.resolve(wasmUrl ?? (wasm as Exclude<typeof wasm, string | URL>))

  /** The session `--resume` names, read before the engine starts, or why there is none. */
  const resumeSession = async (which: string | null): Promise<{ session?: ResumeSession; notice?: string }> => {
    if (which === null) return {}
    if (!sessionBridge) return { notice: 'There is no session store on this page, so no session was resumed.' }
    // The worker read it (src/engine-worker/host/worker-start-reads.ts) unless its read failed: then it is read here.
    const read = which === 'last' ? await options.resumeRead : undefined
    return read ? sessionBridge.resumeRead(read.found) : sessionBridge.resume(which)
  }

  /** Resolves once the stored state that followed the boot (if any) has been handed over. */
  let restoreSent: Promise<unknown> = Promise.resolve()
  const interactive = (async () => {
    // Read while engine.wasm loads; the engine boots with them if they are in by then, else
    // they follow in a restore (page-stored-at-start.ts), so a slow IndexedDB never delays typing.
    markPhase('stores-read', 'start')
    const stored = storedAtStart(
      {
        config: configBridge.load(),
        history: historyBridge.load(),
        resume: resumeSession(resumeArgument(options.args ?? [])),
        agents: loadAgentsInstructions(extras),
      },
      { pageChoosesModel: Boolean(options.provider?.baseUrl || options.provider?.model), screenReader: Boolean(options.screenReader) },
    )
    void stored.later.then(() => markPhase('stores-read', 'end'))
    const module = await wasmInput.catch((error: unknown) => {
      throw new FxError(ErrorCode.FX_ENGINE_LOAD_FAILED, error instanceof Error ? error.message : String(error))
    })
    // With type-ahead the composer already takes keys, so the engine may wait a little for the
    // stores and draw its first screen once, whole (one frame instead of a bare one and then the
    // restored one, each parsed and drawn right when the page starts taking keys).
    markPhase('stores-wait', 'start')
    if (typeAhead) await Promise.race([stored.later, new Promise((resolve) => setTimeout(resolve, STORES_WAIT_MS))])
    markPhase('stores-wait', 'end')
    const ready = stored.now()
    markPhase('engine-start', 'start')
    if (ready?.session) typeAhead?.bootsWithStoredState()
    const result = await remote.start(
      {
        wasm: module,
        cols: term.cols,
        rows: term.rows,
        provider: {
          env: { ...(options.env ?? {}) },
          ...options.provider,
          demoTapeUrl: options.demoTapeUrl ? absolute(options.demoTapeUrl) : demoTapeUrl(),
        },
        workspaceCwd: workspace ? workspace.info.cwd : null,
        args: options.args ?? [],
        useHostFetch: Boolean(options.fetch),
        ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
        ...(options.streamIdleTimeoutMs !== undefined ? { streamIdleTimeoutMs: options.streamIdleTimeoutMs } : {}),
        ...(options.providers ? { customProviders: options.providers } : {}),
        ...(options.modelCatalog ? { modelCatalog: options.modelCatalog } : {}),
        ...(workspace ? { permission: workspace.permission } : {}),
        ...(extras?.toolDescription ? { toolDescription: extras.toolDescription } : {}),
        ...(typeof extras?.workspaceOp === 'function' ? { fileTools: true } : {}),
        sessions: sessionBridge !== null,
        ...(sessionBridge && sessionsHere ? { sessionsHere: true } : {}),
        ...(options.signIn ? { signIn: options.signIn } : {}),
        namespace,
        ...storedStartFields(ready, notices),
      },
      Comlink.proxy(host),
    )
    markPhase('engine-start', 'end')
    if (result.ok) adoptMarks(result.timeline)
    if (!result.ok) {
      if (typeAhead) term.write(typeAhead.takeOver(new Uint8Array()))
      typeAhead = null
      term.write(`\r\n\x1b[31m✗ fxterm could not start: ${result.message}\x1b[0m\r\n`)
      throw new FxError(result.code, result.message)
    }
    if (!ready) restoreSent = stored.later.then(({ state, session }) => remote.restore(state, session))
  })()
  // A prompt waits for the restore (above): sent before it, it would use the default model.
  const restored = interactive.then(() => restoreSent).catch(() => {})
  interactive.catch(() => end(1))

  return {
    interactive,
    exited,
    write: (data) => {
      typeAhead?.keyTyped() // the engine's first frame may then show this input: not a frame to keep
      localEcho.keyTyped(typeof data === 'string' ? data : '\ufffd') // counted; echoed only if typed-like
      void remote.keys(typeof data === 'string' ? encoder.encode(data) : data)
    },
    prompt: (text) => void restored.then(() => remote.prompt(text)),
    resize,
    resized: () => resizing,
    notice: (text, level = 'info') => void remote.notice({ text, level }),
    abort: () => {
      void remote.dispose()
      worker.terminate()
      end(130)
    },
  }
}
