/**
 * The typed contract between the main thread and the engine worker (carried by comlink).
 * Worker methods return result values, never throw: comlink keeps only an error's name and
 * message, so the public API rebuilds errors with their `code` from these results.
 */
import type { TimelineMark } from '../start-up-timeline.ts'
import type { FxFailure } from '../errors.ts'
import type { ExecResult } from '../protocol/workspace.ts'
import type { WorkspaceOpAnswer, WorkspaceOpRequest } from '../protocol/workspace-ops.ts'
import type { ExecRequest, HostAction, HostNotice, SessionEvent, SessionListEntry } from './engine-frames.ts'
import type { StoredState } from '../../engine-worker/host/host-loop.ts'
import type { CustomProviderConfig } from '../../engine-worker/providers/provider-registry.ts'
import type { ModelCatalog } from '../../engine-worker/providers/model-list.ts'
import type { SignInOptions } from '../../engine-worker/auth/issuer-config.ts'
import type { SealedStoreHost } from '../../engine-worker/auth/sealed-store-bridge.ts'

export type ProviderConfig = {
  env: Record<string, string | undefined>
  baseUrl?: string
  model?: string
  apiKey?: string
  /** `baseUrl` came from a link (the page's address): ask once before anything goes there (link-consent.ts). */
  confirm?: boolean
  /** Absolute URL of the demo tape (the worker's own base URL is its script's). */
  demoTapeUrl: string
}

export type WorkerStartConfig = {
  /** A compiled module, or bytes, or an absolute URL of engine.wasm. */
  wasm: WebAssembly.Module | ArrayBuffer | string
  cols: number
  rows: number
  provider: ProviderConfig
  /** The workspace's cwd when a valid workspace is connected, else null (chat only). */
  workspaceCwd: string | null
  notices: string[]
  args: string[]
  /** When true, model requests go through the app's `fetch` on the main thread. */
  useHostFetch: boolean
  permission?: 'allow-sandboxed' | 'prompt'
  /** AGENTS.md text for the system prompt. */
  instructions?: string
  toolDescription?: string
  /** The workspace answers workspace ops (file tools, /diff, /undo). */
  fileTools?: boolean
  /** Settings restored from the configStore; the engine validates them. */
  config?: Record<string, string>
  /** Model requests allowed per turn. */
  maxSteps?: number
  /** How long a model stream may go without progress (the `streamIdleTimeoutMs` option). */
  streamIdleTimeoutMs?: number
  /** Custom OpenAI-compatible providers (`/provider` lists them). */
  customProviders?: CustomProviderConfig[]
  /** The configured provider's catalog, so it is never fetched. */
  modelCatalog?: ModelCatalog
  /** The page has a session store: the engine commits snapshots and offers /resume. */
  sessions: boolean
  /** Prompt history for this workspace, oldest first. */
  history: string[]
  /** Where /login signs in, and the model API its token is for (see src/engine-worker/auth/issuer-config.ts). */
  signIn?: SignInOptions & { modelBaseUrl?: string }
  /** Names the Web Lock that serializes token refreshes across tabs. */
  namespace?: string
  /** A saved session to restore right after boot (`--resume`); read-only when another tab holds it. */
  resume?: ResumeSession
  /**
   * Boot before the stores answer: `config`, `history`, `instructions` and the session come later
   * through `restore` (the banner waits for them; typing does not).
   */
  restorePending?: boolean
}

/**
 * The session `--resume` restores: its bytes, or the id of the one this worker read itself at
 * start-up (worker-start-reads.ts), which never crossed to the page.
 */
export type ResumeSession = { bytes: Uint8Array; readOnly: boolean } | { prefetchedId: string; readOnly: boolean }

export type HostFetchHead = { ok: true; status: number; statusText: string; headers: [string, string][] } | { ok: false; message: string }

/** Callbacks the main thread gives the worker (wrapped with Comlink.proxy). */
export type HostCallbacks = SealedStoreHost & {
  /** The app's openUrl (the verification page): false when it could not open it. */
  openUrl(url: string): Promise<boolean>
  /** This tab signed out: tell the other tabs. */
  signedOut(): void
  /** This tab signed in: tell the other tabs. */
  signedIn(): void
  /** Terminal output, and how many typed ASCII characters the page may echo itself after it. */
  /** A frame, the echo hint for after it, and how many `keys()` calls it has seen (see local-echo.ts). */
  write(bytes: Uint8Array, echoColumns: number, keysSeen: number): void
  event(event: { type: string } & Record<string, unknown>): void
  exit(code: number): void
  exec(id: number, request: ExecRequest): Promise<ExecResult>
  cancelExec(id: number): void
  /** A workspace op (file tools, /diff, /undo); null when the workspace has none. */
  workspaceOp(request: WorkspaceOpRequest): Promise<WorkspaceOpAnswer | null>
  fetch(url: string, init: { method: string; headers: [string, string][]; body?: string }, onChunk: (chunk: Uint8Array | null) => void, requestId: number): Promise<HostFetchHead>
  abortFetch(requestId: number): void
  /** A slash command asked for something only the page can do. */
  action(action: HostAction): void
  clipboard(text: string): void
  /** A setting the engine accepted: save it in the configStore. */
  config(id: string, value: string): void
  /** Saves a session snapshot (opaque bytes); the answer goes back to the engine. */
  sessionCommit(bytes: Uint8Array): Promise<SessionEvent>
  /** Saved sessions, newest first, for /resume and /sessions. */
  sessionList(): Promise<SessionListEntry[]>
  /** One saved session, or null when there is none. */
  sessionOpen(id: string): Promise<{ bytes: Uint8Array; readOnly: boolean } | null>
  sessionRemove(id: string): void
  /** A submitted prompt or slash command, for the prompt history. */
  historyAppend(value: string): void
  historyClear(): void
}

/** `timeline`: the engine worker's start-up marks (src/shared/start-up-timeline.ts). */
export type StartResult = { ok: true; provider: string; model: string; timeline?: TimelineMark[] } | FxFailure

export type EngineWorkerApi = {
  start(config: WorkerStartConfig, host: HostCallbacks): Promise<StartResult>
  keys(bytes: Uint8Array): void
  /** Sends `text` as a prompt: it starts a turn, or steers the running one. Never keys. */
  prompt(text: string): void
  /** Resolves once the engine's frame for this size has been handed to the page's terminal. */
  resize(cols: number, rows: number): Promise<void>
  notice(notice: HostNotice): void
  /** A setting another tab saved: the engine applies it without saving it again. */
  configChanged(id: string, value: string): void
  /** What the stores held, after a start with `restorePending` (see HostLoop.restore). */
  restore(stored: StoredState, resume?: ResumeSession): void
  /** Another tab signed out: forget the sign-in here too. */
  signedOutElsewhere(): void
  /** Another tab signed in: use the account here too. */
  signedInElsewhere(): void
  dispose(): void
}
