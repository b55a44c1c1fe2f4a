/**
 * The typed contract between the main thread and the engine worker (carried by comlink).
 * Worker methods return result values, never throw: comlink keeps only an error's name and
 * message, so the public API rebuilds errors with their `code` from these results.
 */
import type { TimelineMark } from '../start-up-timeline.ts'
import type { FxFailure } from '../errors.ts'
import type { RevisionedBytes } from '../stores/types.ts'
import type { ExecResult } from '../protocol/workspace.ts'
import type { WorkspaceOpAnswer, WorkspaceOpRequest } from '../protocol/workspace-ops.ts'
import type { ExecRequest, HostAction, HostNotice, SessionEvent, SessionListEntry } from './engine-frames.ts'
import type { CustomProviderConfig, ModelCatalog } from '../provider-types.ts'

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
  /**
   * The session store may be fxterm's IndexedDB one, which this worker then writes itself: the
   * page says which with `sessionsWrittenHere` once it knows, and commits wait for that.
   */
  sessionsHere?: boolean
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
export type ResumeSession = ({ bytes: Uint8Array } | { prefetchedId: string }) & {
  readOnly: boolean
  /** Which session it is and the revision read: the next commit of it passes that revision. */
  stored?: { id: string; revision: string }
}

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
  /**
   * This worker took a snapshot for fxterm's store (see sessionsWrittenHere), before writing it:
   * the page learns of a new session now, ahead of any command the engine asks for after it.
   */
  sessionTaken(take: CommitTake): void
  /** This worker wrote a snapshot to fxterm's store itself (see sessionsWrittenHere): how it went. */
  sessionWritten(note: CommitNote): void
  /** Saved sessions, newest first, for /resume and /sessions. */
  sessionList(): Promise<SessionListEntry[]>
  /** One saved session, or null when there is none. */
  sessionOpen(id: string): Promise<{ bytes: Uint8Array; readOnly: boolean; revision: string } | null>
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
  /**
   * After a start with `sessionsHere`: this worker writes the sessions to fxterm's IndexedDB store
   * of `namespace` itself, or (null) sends them to the page as for an app's own store.
   */
  sessionsWrittenHere(where: { namespace: string | undefined } | null): void
  /** Another tab signed out: forget the sign-in here too. */
  signedOutElsewhere(): void
  /** Another tab signed in: use the account here too. */
  signedInElsewhere(): void
  dispose(): void
}

/** The part of the boot options read from the app's stores and workspace. */
export type StoredState = { config: Record<string, string>; history: string[]; instructions?: string; notices: string[] }

/** The `signIn` option of createFxTerminal. */
export type SignInOptions = {
  /** The issuer (its `/.well-known/openid-configuration` is read) or the discovery URL itself. */
  issuer?: string
  /** Explicit endpoints: no discovery request when both device and token endpoints are given. */
  deviceAuthorizationEndpoint?: string
  tokenEndpoint?: string
  revocationEndpoint?: string
  /** The OAuth client id the issuer knows this app by. */
  clientId?: string
  /** Default `openid offline_access` (offline_access asks for a refresh token). */
  scope?: string
}

/** The page's side: every call answered, never thrown. */
export type SealedStoreHost = {
  storeLoad(name: SealedStoreName): Promise<StoreAnswer<RevisionedBytes | null>>
  storeCommit(name: SealedStoreName, bytes: Uint8Array, expectedRevision: string | undefined): Promise<StoreAnswer<{ revision: string }>>
  storeRemove(name: SealedStoreName, expectedRevision: string | undefined): Promise<StoreAnswer<boolean | 'missing' | void>>
}

/** Which of the page's two sealed stores a call is for. */
export type SealedStoreName = 'oauth' | 'key'

/** A store call's answer as it crosses to the worker. */
export type StoreAnswer<T> = { ok: true; value: T } | FxFailure<string>

/** A commit taken, before its write: its session, whether it is the engine's fork, its order. */
export type CommitTake = { id: string; forked: boolean; seq: number }

/** What a write of session `id` came to, for the page (see the file comment). */
export type CommitNote = {
  id: string
  outcome: 'ok' | 'conflict' | 'error'
  /** No revision was known for the id: a new session (the saved list changed). */
  created: boolean
  /** The first commit of another id after a conflict: the engine's fork. */
  forked: boolean
  /** The order the engine made the commit in (notes of two ids may arrive the other way round). */
  seq: number
  code?: string
  message?: string
  /** When the write started and when the store answered (ms since the epoch), and its size. */
  startedAt: number
  endedAt: number
  bytes: number
}
