/**
 * What crosses between a page and the session store worker (comlink over a MessagePort): the store's
 * API, and errors as plain data (`code`, `name`, `message`), rebuilt on the other side. The worker's
 * side is src/engine-worker/stores/session-store-api.ts.
 */

import type { RevisionedBytes } from '../stores/types.ts'

export type Listed = Array<{ id: string; updatedAtMs: number }>

export type WireError = { code?: string; name: string; message: string }
export type WireResult<T> = { ok: true; value: T } | { ok: false; error: WireError }

/** What the session store worker exposes; `namespace` picks the database. */
export type SessionStoreApi = {
  load(namespace: string | undefined, id: string): Promise<WireResult<RevisionedBytes | null>>
  loadHead(namespace: string | undefined, id: string, atLeast: number): Promise<WireResult<RevisionedBytes | null>>
  list(namespace: string | undefined): Promise<WireResult<Listed>>
  commit(namespace: string | undefined, id: string, bytes: Uint8Array, expectedRevision: string | undefined): Promise<WireResult<{ revision: string }>>
  remove(namespace: string | undefined, id: string): Promise<WireResult<void>>
  lastCommitted(namespace: string | undefined, id: string): Promise<WireResult<string | null>>
  /** Reads the newest session into what its next commit compares with (IdbSessionStore.warm). */
  warmNewest(namespace: string | undefined): Promise<WireResult<void>>
}
