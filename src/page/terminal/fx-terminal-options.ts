/** The options of createFxTerminal and what it returns (create-fx-terminal.ts). */
import type { WorkspaceAdapter } from '../../shared/protocol/workspace.ts'
import type { ConfigStore, OAuthSessionStore, PromptHistoryStore, SessionStore } from '../../shared/stores/types.ts'
import type { CustomProviderConfig } from '../../engine-worker/providers/provider-registry.ts'
import type { ModelCatalog } from '../../engine-worker/providers/model-list.ts'
import type { SignInOptions } from '../../engine-worker/auth/issuer-config.ts'
import type { TerminalAdapter } from '../../shared/terminal-adapter.ts'
import type { SessionLocksOptions } from './session-locks.ts'

/** Options of {@link createFxTerminal}. */
export type FxTerminalOptions = {
  terminal: TerminalAdapter
  /**
   * engine.wasm: a URL (default: the file shipped with this module), which the engine worker
   * fetches and compiles, or bytes, or a compiled module (e.g. `preloadEngine(url)`'s).
   */
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
  /**
   * An OpenAI-compatible server (explicit values win over `env` and over saved settings).
   * `confirm`: `baseUrl` came from the page's address, so the person is asked once, in this tab,
   * before anything is sent there.
   */
  provider?: { baseUrl?: string; model?: string; apiKey?: string; confirm?: boolean }
  /** More OpenAI-compatible servers for `/provider` (Ollama, LM Studio and llama.cpp are built in). */
  providers?: CustomProviderConfig[]
  /** The configured provider's model catalog, so it is never fetched (e.g. behind a chat-only proxy). */
  modelCatalog?: ModelCatalog
  /** Model requests allowed in one turn (default 100). */
  maxSteps?: number
  /** A model stream with no progress for this long is dropped and retried (default 60000 ms; keep-alive comments do not count; 0: no limit). */
  streamIdleTimeoutMs?: number
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

/**
 * {@link FxTerminalOptions} plus the static page's start-up seams (src/app/main.ts), which pass on
 * what its first script began before the terminal existed. Not public: src/index.ts exports
 * `createFxTerminal`, which takes `FxTerminalOptions` only.
 */
export type FxTerminalStartOptions = FxTerminalOptions & {
  /**
   * The session lock a page claimed before the terminal existed (`early`, see
   * `requestSessionLock`), and who is told which session's lock this tab comes to hold.
   */
  sessionLocks?: SessionLocksOptions
  /**
   * The session `--resume last` restores, as the worker `createWorker` gives read it itself
   * (spawned with `spawnEngineWorkerReading`, as the static page does): its id and revision, or
   * `found: null` when none is saved. Its bytes stay in the worker. Null or undefined: the page
   * reads it from `sessionStore`.
   */
  resumeRead?: Promise<{ found: { id: string; revision: string } | null } | null | undefined>
}

/** A running fxterm. */
export type FxTerminal = {
  /** Resolves when the composer accepts keys; rejects with an FxError when the engine cannot start. */
  interactive: Promise<void>
  /** Resolves with the exit code when the session ends (/exit, Ctrl+D, or abort()). */
  exited: Promise<number>
  /** Sends input to fxterm as if it was typed (the adapter already forwards the terminal's). */
  write(data: string | Uint8Array): void
  /**
   * Sends `text` as a prompt (or steers the running turn with it). It is never read as keys: a
   * leading `/` is not a command, nothing on screen (a question, a picker) is answered by it,
   * and it is not kept in the prompt history. It waits for the stored settings, so it never goes
   * out with the default model.
   */
  prompt(text: string): void
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
