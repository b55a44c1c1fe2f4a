/**
 * createFxTerminal: the public entry. Starts the engine worker, connects the terminal adapter
 * (keys → worker, worker output → terminal), bridges command execs to the app's workspace and
 * model requests to the app's fetch when one is given.
 */
import * as Comlink from 'comlink'
import type { WorkspaceAdapter, WorkspaceExtras } from '../protocol/workspace.ts'
import type { EngineWorkerApi, HostCallbacks } from '../worker/worker-api.ts'
import { connectWorkspace } from './connect-workspace.ts'
import { createFetchBridge } from './fetch-bridge.ts'
import { attachFileDrop } from './file-drop.ts'
import { FxError } from './fx-error.ts'
import { createLocalEcho } from './local-echo.ts'
import { startTypeAhead, type TypeAhead } from './type-ahead.ts'
import { loadAgentsInstructions } from './load-agents.ts'
import { performHostAction, saveDownload } from './host-actions.ts'
import { preloadEngine } from './preload-engine.ts'
import { demoTapeUrl, engineWasmUrl } from './engine-url.ts'
import { spawnEngineWorker } from './spawn-engine-worker.ts'
import type { TerminalAdapter } from './terminal-adapter.ts'
import { createWorkspaceBridge } from './workspace-bridge.ts'
import { createConfigBridge } from './config-bridge.ts'
import { createHistoryBridge } from './history-bridge.ts'
import { createSessionBridge, resumeArgument, type OpenedSession } from './session-bridge.ts'
import { createTabSync, type TabSync } from './tab-sync.ts'
import type { ConfigStore, OAuthSessionStore, PromptHistoryStore, SessionStore } from '../stores/types.ts'
import type { CustomProviderConfig } from '../providers/provider-registry.ts'
import type { ModelCatalog } from '../providers/model-list.ts'
import { createPageAuth } from '../auth/page-auth.ts'
import type { SignInOptions } from '../auth/issuer-config.ts'

/** Pages that want the fastest start call it before building their terminal and pass `createWorker: () => worker`. */
export { spawnEngineWorker }

/** Options of {@link createFxTerminal}. */
export type FxTerminalOptions = {
  terminal: TerminalAdapter
  /** engine.wasm: a URL (default: the file shipped with this module), bytes, or a compiled module. */
  wasm?: string | URL | ArrayBuffer | WebAssembly.Module | Promise<WebAssembly.Module>
  /** AI_GATEWAY_API_KEY, FX_BASE_URL, FX_MODEL, FX_API_KEY. Never shown or stored by fxterm. */
  env?: Record<string, string | undefined>
  /** `['--resume', 'last']` continues the latest saved session, `['--resume', '<id>']` a given one. */
  args?: string[]
  fetch?: typeof fetch
  onEvent?: (event: { type: string } & Record<string, unknown>) => void
  /** Restores and keeps settings (`model`, `mode`, `provider`, `fast`). */
  configStore?: ConfigStore
  /** Keeps the prompts typed here (Up walks them), per workspace root. */
  promptHistoryStore?: PromptHistoryStore
  /** Keeps conversations: committed as they go, listed by /resume, restored by `--resume`. */
  sessionStore?: SessionStore
  /**
   * Keeps two embeds on one origin apart: their session locks (`fxterm-session:<namespace>:<id>`)
   * and the channel their tabs talk on (`fxterm:<namespace>`). Default 'fxterm'.
   */
  namespace?: string
  /** Keeps the sign-in (/login): sealed token bytes with revisions. Default: in memory, for this tab. */
  oauthSessionStore?: OAuthSessionStore
  /** Opens the verification page of /login; return false when it could not (the URL stays printed). */
  openUrl?: (url: string) => boolean | Promise<boolean>
  /**
   * Where /login signs in: `{ issuer }` (OpenID discovery) or explicit endpoints, plus `clientId` and
   * `scope` (default `openid offline_access`); default issuer Vercel's. `modelBaseUrl` is the model
   * API the token (and a /key key) is sent to, default AI Gateway's.
   */
  signIn?: SignInOptions & { modelBaseUrl?: string }
  /** Keeps a key saved with /key, sealed like the sign-in (e.g. `idbKeyStore()`); without one, /key cannot save. */
  keyStore?: OAuthSessionStore
  workspace?: WorkspaceAdapter
  /** An OpenAI-compatible server (explicit values win over `env` and over saved settings). */
  provider?: { baseUrl?: string; model?: string; apiKey?: string }
  /** More OpenAI-compatible servers for `/provider` (Ollama, LM Studio and llama.cpp are built in). */
  providers?: CustomProviderConfig[]
  /** The configured provider's model catalog, so it is never fetched (e.g. behind a chat-only proxy). */
  modelCatalog?: ModelCatalog
  /** Model requests allowed in one turn (default 100). */
  maxSteps?: number
  /** The offline demo tape (default: the tour shipped with this module). */
  demoTapeUrl?: string
  /** Creates the engine worker (for bundlers that need their own worker URL). */
  createWorker?: () => Worker
  /** Files dropped onto this element are uploaded into the workspace. */
  dropTarget?: HTMLElement
  /** Starts in screen-reader mode (as /a11y on): finished replies and command results are read out. */
  screenReader?: boolean
  /**
   * Draws a provisional composer at once and echoes keys into it until the engine's first frame
   * (see type-ahead.ts). For a terminal fxterm has to itself, fresh: the engine's frame wipes it.
   */
  typeAhead?: boolean
  /** Where copies go (Cmd+C in the composer, /copy); default `navigator.clipboard`. */
  clipboard?: { writeText(text: string): Promise<void> }
}

/** A running fxterm. */
export type FxTerminal = {
  /** Resolves when the composer accepts keys; rejects with an FxError when the engine cannot start. */
  interactive: Promise<void>
  /** Resolves with the exit code when the session ends (/exit, Ctrl+D, or abort()). */
  exited: Promise<number>
  /** Sends input to fxterm as if it was typed (the adapter already forwards the terminal's). */
  write(data: string | Uint8Array): void
  /** Tells fxterm the terminal's size (the adapter already forwards resizes). */
  resize(cols: number, rows: number): void
  /**
   * Resolves once fxterm has redrawn for every size it was told so far (its frame handed to the
   * terminal). A page that resizes in bursts waits for it between sizes (see fitBetweenWrites).
   */
  resized(): Promise<void>
  /** Stops everything in flight, ends the session, and frees the workers; `exited` resolves 130. */
  abort(): void
  /** Shows a one-sentence notice in the transcript (e.g. the page's own storage warning). */
  notice(text: string, level?: 'info' | 'warning' | 'error'): void
}

const encoder = new TextEncoder()

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
    ? createSessionBridge({ store: options.sessionStore, namespace, report, onListChanged: () => tabs.post({ type: 'sessions_changed' }) })
    : null
  if (sessionBridge) unsubscribers.push(() => sessionBridge.dispose())
  unsubscribers.push(
    tabs.onMessage((message) => {
      if (message.type === 'config') void remote.configChanged(message.id, message.value)
      else if (message.type === 'sessions_changed') options.onEvent?.({ type: 'session.list_changed' })
      else if (message.type === 'signed_out') void remote.signedOutElsewhere()
      else if (message.type === 'signed_in') void remote.signedInElsewhere()
    }),
  )

  const host: HostCallbacks = {
    ...createPageAuth(options, tabs),
    config: (id, value) => configBridge.save(id, value),
    write: (bytes, echoColumns) => {
      if (!firstOutput) performance.mark((firstOutput = 'fxterm:first-output'))
      if (typeAhead) term.write(typeAhead.takeOver(bytes))
      typeAhead = null
      term.write(bytes)
      localEcho.setBudget(echoColumns)
    },
    event: (event) => {
      if (event.type === 'announce' && typeof event['text'] === 'string') term.announce?.(event['text'])
      options.onEvent?.(event)
    },
    exit: (code) => end(code),
    exec: (id, request) => execBridge ? execBridge.exec(id, request) : Promise.resolve({ stdout: '', stderr: 'fxterm: no workspace', exitCode: 127 }),
    cancelExec: (id) => execBridge?.cancel(id),
    fetch: (url, init, onChunk, requestId) =>
      fetchBridge ? fetchBridge.fetch(url, init, onChunk, requestId) : Promise.resolve({ ok: false as const, message: 'no fetch option' }),
    abortFetch: (requestId) => fetchBridge?.abort(requestId),
    action: (action) => {
      if (action.action === 'a11y_on' || action.action === 'a11y_off') term.setScreenReaderMode?.(action.action === 'a11y_on')
      else void performHostAction(action, extras, saveDownload).then((notice) => remote.notice(notice))
    },
    sessionCommit: (bytes) => sessionBridge ? sessionBridge.commit(bytes) : Promise.resolve({ type: 'commit_ok' as const }),
    sessionList: () => sessionBridge ? sessionBridge.list() : Promise.resolve([]),
    // Bytes go to the worker as copies, never transferred: they may be the app's own buffer.
    sessionOpen: (id) => (sessionBridge ? sessionBridge.open(id) : Promise.resolve(null)),
    sessionRemove: (id) => void sessionBridge?.remove(id),
    historyAppend: (value) => historyBridge.append(value),
    historyClear: () => historyBridge.clear(),
    clipboard: (text) => {
      const clipboard = options.clipboard ?? globalThis.navigator?.clipboard
      if (!clipboard) {
        void remote.notice({ text: 'There is no clipboard here, so nothing was copied.', level: 'warning' })
        return
      }
      clipboard.writeText(text).catch((error: unknown) => {
        void remote.notice({ text: `Copying failed: ${error instanceof Error ? error.message : String(error)}`, level: 'warning' })
      })
    },
  }
  if (options.dropTarget && extras) {
    unsubscribers.push(attachFileDrop(options.dropTarget, extras, (notice) => void remote.notice(notice)))
  }

  const localEcho = createLocalEcho((text) => term.write(text))
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
  const wasmInput =
    typeof wasm === 'string' || wasm instanceof URL ? preloadEngine(absolute(String(wasm))) : Promise.resolve(wasm)

  /** The session `--resume` names, read before the engine starts, or why there is none. */
  const resumeSession = async (which: string | null): Promise<{ session?: OpenedSession; notice?: string }> => {
    if (which === null) return {}
    if (!sessionBridge) return { notice: 'There is no session store on this page, so no session was resumed.' }
    return sessionBridge.resume(which)
  }

  const interactive = (async () => {
    // The stores and AGENTS.md are read while engine.wasm loads and compiles (none of these
    // reject). The engine does not wait for them: it takes keys at once, and what they held
    // follows (restore), so a slow IndexedDB never delays the first keystroke.
    const reads = Promise.all([configBridge.load(), historyBridge.load(), resumeSession(resumeArgument(options.args ?? [])), loadAgentsInstructions(extras)])
    const module = await wasmInput.catch((error: unknown) => {
      throw new FxError('FX_ENGINE_LOAD_FAILED', error instanceof Error ? error.message : String(error))
    })
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
        notices,
        args: options.args ?? [],
        useHostFetch: Boolean(options.fetch),
        ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
        ...(options.providers ? { customProviders: options.providers } : {}),
        ...(options.modelCatalog ? { modelCatalog: options.modelCatalog } : {}),
        ...(workspace ? { permission: workspace.permission } : {}),
        ...(extras?.toolDescription ? { toolDescription: extras.toolDescription } : {}),
        sessions: sessionBridge !== null,
        ...(options.signIn ? { signIn: options.signIn } : {}),
        namespace,
        history: [],
        restorePending: true,
      },
      Comlink.proxy(host),
    )
    if (!result.ok) {
      if (typeAhead) term.write(typeAhead.takeOver(new Uint8Array()))
      typeAhead = null
      term.write(`\r\n\x1b[31m✗ fxterm could not start: ${result.message}\x1b[0m\r\n`)
      throw new FxError(result.code, result.message)
    }
    void reads.then(([stored, history, resumed, agents]) => {
      // A provider or model named by the page for this load wins over the saved choice.
      if (options.provider?.baseUrl || options.provider?.model) {
        delete stored['provider']
        delete stored['model']
      }
      if (options.screenReader) stored['a11y'] = 'on'
      const later = [...agents.notices, ...(resumed.notice ? [resumed.notice] : [])]
      void remote.restore({ config: stored, history, notices: later, ...(agents.text ? { instructions: agents.text } : {}) }, resumed.session)
    })
  })()
  interactive.catch(() => end(1))

  return {
    interactive,
    exited,
    write: (data) => void remote.keys(typeof data === 'string' ? encoder.encode(data) : data),
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
