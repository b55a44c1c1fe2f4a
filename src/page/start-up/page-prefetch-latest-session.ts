/**
 * A reload resumes the latest session, and that read is the long pole of start-up: so the page
 * starts it at once (list, then load the newest), while the terminal's code is still loading.
 * The wrapped store answers the first `list()` and the first `load()` of that session from those
 * reads; every later call, and any call after a write, goes to the store itself.
 */
import type { AsyncSessionStore, RevisionedBytes } from '../../shared/stores/types.ts'

type Listed = Array<{ id: string; updatedAtMs: number }>

export function prefetchLatestSession(store: AsyncSessionStore): AsyncSessionStore {
  let listed: Promise<Listed> | null = store.list()
  let latest: { id: string; bytes: Promise<RevisionedBytes | null> } | null = null
  const loading = listed.then((entries) => {
    const newest = entries.reduce<Listed[number] | null>((best, e) => (best === null || e.updatedAtMs > best.updatedAtMs ? e : best), null)
    if (newest && listed !== null) latest = { id: newest.id, bytes: store.load(newest.id) }
  })
  // A failed prefetch is never reported here: the calls it would have answered ask again.
  loading.catch(() => {})
  const forget = () => {
    listed = null
    latest = null
  }

  return {
    list() {
      const early = listed
      listed = null
      return early ? early.catch(() => store.list()) : store.list()
    },
    async load(id) {
      await loading.catch(() => {})
      const early = latest
      latest = null
      if (early && early.id === id) return early.bytes.catch(() => store.load(id))
      return store.load(id)
    },
    commit(id, bytes, expectedRevision) {
      forget()
      return store.commit(id, bytes, expectedRevision)
    },
    remove(id) {
      forget()
      return store.remove(id)
    },
  }
}
