/**
 * The engine worker reads the session a reload resumes (`--resume last`) itself, as soon as it
 * starts. The page's thread is busy opening the terminal then, and IndexedDB answers a read on
 * the thread that asked: read on the page, the 4 MB of a long session waited for that thread,
 * was deserialized there, then copied again to this worker. Here the bytes arrive in the worker
 * that needs them; the page only learns the session's id and revision (for its lock and its next
 * commit) through `prefetchedSession`.
 *
 * The page asks for it with a message posted right after the worker is created (spawnEngineWorker
 * with `readsResumeOf`; the static page does it from its first script, src/app/early-worker.ts).
 */
import { idbSessionStore } from '../stores/idb-session-store.ts'
import { PREFETCH_RESUME } from './prefetch-message.ts'

/** What the worker found: the newest session, or none saved. */
export type PrefetchAnswer = { found: { id: string; revision: string } | null }

type Read = { id: string; revision: string; bytes: Uint8Array } | null

let reading: Promise<Read> | null = null
let held: Read = null

/** Listens for the page's request; call before Comlink.expose, so Comlink never sees it. */
export function listenForPrefetch(scope: Pick<EventTarget, 'addEventListener'>, indexedDB?: IDBFactory): void {
  scope.addEventListener('message', (event) => {
    const data = (event as MessageEvent).data as { type?: unknown; namespace?: unknown } | null
    if (data?.type !== PREFETCH_RESUME || reading) return
    event.stopImmediatePropagation()
    const namespace = typeof data.namespace === 'string' ? data.namespace : undefined
    reading = readNewest(namespace, indexedDB)
  })
}

async function readNewest(namespace: string | undefined, indexedDB?: IDBFactory): Promise<Read> {
  const store = idbSessionStore({ ...(namespace !== undefined ? { namespace } : {}), ...(indexedDB ? { indexedDB } : {}) })
  const [newest] = await store.list() // newest first
  if (!newest) return null
  const found = await store.load(newest.id)
  return (held = found ? { id: newest.id, revision: found.revision, bytes: found.bytes } : null)
}

/**
 * The session read here, by id and revision, or `{ found: null }` when none is saved.
 * Undefined when the page never asked, or the read failed: the page then reads it itself.
 */
export async function prefetchedSession(): Promise<PrefetchAnswer | undefined> {
  if (!reading) return undefined
  try {
    const read = await reading
    return { found: read ? { id: read.id, revision: read.revision } : null }
  } catch {
    return undefined
  }
}

/** The bytes of session `id` read here, once (then they belong to the caller); null if not held. */
export function takePrefetchedBytes(id: string): Uint8Array | null {
  const read = held
  if (!read || read.id !== id) return null
  held = null
  return read.bytes
}
