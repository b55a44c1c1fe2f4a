/**
 * The store contracts of the browser integration reference, exactly: any of these methods may
 * answer synchronously or with a promise. Below them, the promise-only shapes that fxterm's own
 * IndexedDB and memory stores implement (each one satisfies its contract type).
 */

/** Settings such as the active model and mode. `set` is called only after fx accepted a value. */
export type ConfigStore = {
  get(id: string): string | null | Promise<string | null>
  set(id: string, value: string): void | Promise<void>
}

/** Terminal input history, per workspace root. `load` answers oldest → newest. */
export type PromptHistoryStore = {
  load(workspaceRoot: string, limit: number): string[] | Promise<string[]>
  append(
    workspaceRoot: string,
    value: string,
    timestampMs: number,
  ):
    | void
    | 'duplicate'
    | 'record_too_large'
    | Promise<void | 'duplicate' | 'record_too_large'>
  clear(workspaceRoot: string): void | Promise<void>
}

/** A stored snapshot and the revision that must be passed back to replace it. */
export type RevisionedBytes = { bytes: Uint8Array; revision: string }

/**
 * Conversations as opaque bytes. `commit` gets `undefined` for the first revision, returns a new
 * revision after every write, and throws `FX_SESSION_REVISION_CONFLICT` on a stale one.
 */
export type SessionStore = {
  load(id: string): RevisionedBytes | null | Promise<RevisionedBytes | null>
  commit(
    id: string,
    bytes: Uint8Array,
    expectedRevision: string | undefined,
  ): { revision: string } | Promise<{ revision: string }>
  list():
    | Array<{ id: string; updatedAtMs: number }>
    | Promise<Array<{ id: string; updatedAtMs: number }>>
  remove(id: string): void | Promise<void>
}

/**
 * The one signed-in OAuth session, as opaque bytes. A stale commit or removal throws
 * `FX_OAUTH_SESSION_REVISION_CONFLICT`; removing nothing answers false or 'missing'.
 */
export type OAuthSessionStore = {
  load(): RevisionedBytes | null | Promise<RevisionedBytes | null>
  commit(
    bytes: Uint8Array,
    expectedRevision: string | undefined,
  ): { revision: string } | Promise<{ revision: string }>
  remove(
    expectedRevision: string | undefined,
  ): void | boolean | 'missing' | Promise<void | boolean | 'missing'>
}

/** fxterm's config store: the contract with every answer a promise. */
export type AsyncConfigStore = {
  get(id: string): Promise<string | null>
  set(id: string, value: string): Promise<void>
}

/** fxterm's prompt history store: the contract with every answer a promise. */
export type AsyncPromptHistoryStore = {
  load(workspaceRoot: string, limit: number): Promise<string[]>
  append(workspaceRoot: string, value: string, timestampMs: number): Promise<void | 'duplicate' | 'record_too_large'>
  clear(workspaceRoot: string): Promise<void>
}

/** fxterm's session store. `list` answers newest first (ties by id). */
export type AsyncSessionStore = {
  load(id: string): Promise<RevisionedBytes | null>
  commit(id: string, bytes: Uint8Array, expectedRevision: string | undefined): Promise<{ revision: string }>
  list(): Promise<Array<{ id: string; updatedAtMs: number }>>
  remove(id: string): Promise<void>
}

/**
 * What fxterm's off-thread session store adds (idb-session-store-off-thread.ts). `commitHandingOver`
 * is `commit` for a caller that needs the bytes no more: they move to the store's worker instead of
 * being copied there (the page then serializes no 4 MB per commit). `lastCommitted` is the revision
 * the store's own last commit of `id` wrote (null when it wrote none): a commit that timed out and
 * landed later is known by it, its bytes having moved on.
 */
export type SessionStoreHandOver = {
  commitHandingOver(id: string, bytes: Uint8Array, expectedRevision: string | undefined): Promise<{ revision: string }>
  lastCommitted(id: string): Promise<string | null>
}

/**
 * fxterm's IndexedDB session store as the static page's engine worker serves it
 * (open-browser-stores.ts): that worker writes the engine's snapshots to it itself. Answers the
 * database's namespace, or null where IndexedDB failed its probe (the sessions are in memory).
 */
export type SessionStoreInEngineWorker = {
  writtenInEngineWorker(): Promise<{ namespace: string | undefined } | null>
}

/**
 * A session store that can read the start of a session without the rest (fxterm's IndexedDB stores):
 * at least `atLeast` bytes from the start (all of it when it is shorter), with its revision. The
 * /resume list reads only each session's header; loading them whole read 4 MB per long session.
 */
export type SessionStoreHeads = {
  loadHead(id: string, atLeast: number): Promise<RevisionedBytes | null>
}

/** fxterm's OAuth session store. `remove` answers true once it removed the record. */
export type AsyncOAuthSessionStore = {
  load(): Promise<RevisionedBytes | null>
  commit(bytes: Uint8Array, expectedRevision: string | undefined): Promise<{ revision: string }>
  remove(expectedRevision: string | undefined): Promise<true | 'missing'>
}

/** Options every IndexedDB store takes. */
export type IdbStoreOptions = {
  /** Prefix of the database names, so two embeds on one origin keep apart. Default 'fxterm'. */
  namespace?: string
  /** The IndexedDB to use; default `globalThis.indexedDB`. Tests pass a fresh one each. */
  indexedDB?: IDBFactory
}
