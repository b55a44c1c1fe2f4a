/**
 * Start-up reads, begun as soon as the page starts instead of when the terminal is built: the
 * settings and the prompt history the engine restores. Each wrapped store answers its first
 * matching read from the read already in flight; any other call, and every call after a write,
 * goes to the store itself. (page-prefetch-latest-session.ts does the same for the session.)
 *
 * Given `answered` (what the engine worker read at start-up, src/engine-worker/host/worker-start-reads.ts), no read
 * is started here: the first matching one takes that answer, or asks the store if it is null.
 */
import type { AsyncConfigStore, AsyncPromptHistoryStore } from '../../shared/stores/types.ts'

/** `store` whose first get(id) of each of `ids` is answered by a read started now. */
export function prefetchConfig(store: AsyncConfigStore, ids: readonly string[], answered?: Promise<Record<string, string> | null>): AsyncConfigStore {
  const early = new Map<string, Promise<string | null>>()
  for (const id of ids) {
    const read = answered ? answered.then((config) => (config ? (config[id] ?? null) : store.get(id))) : store.get(id)
    read.catch(() => {}) // a failed read is asked again by the caller, which reports it
    early.set(id, read)
  }
  return {
    get(id) {
      const read = early.get(id)
      early.delete(id)
      return read ? read.catch(() => store.get(id)) : store.get(id)
    },
    set(id, value) {
      early.delete(id)
      return store.set(id, value)
    },
  }
}

/** `store` whose first load(root, limit) is answered by a read started now. */
export function prefetchHistory(store: AsyncPromptHistoryStore, root: string, limit: number, answered?: Promise<string[] | null>): AsyncPromptHistoryStore {
  let early: Promise<string[]> | null = answered ? answered.then((history) => history ?? store.load(root, limit)) : store.load(root, limit)
  early.catch(() => {})
  const take = (r: string, l: number) => {
    const read = r === root && l === limit ? early : null
    early = null
    return read
  }
  return {
    load(r, l) {
      const read = take(r, l)
      return read ? read.catch(() => store.load(r, l)) : store.load(r, l)
    },
    append(r, value, timestampMs) {
      early = null
      return store.append(r, value, timestampMs)
    },
    clear(r) {
      early = null
      return store.clear(r)
    },
  }
}
