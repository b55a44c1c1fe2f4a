import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { openBrowserStores } from './open-browser-stores.ts'
import { freshIndexedDB, rawEntries, utf8 } from '../../../test/support/idb.ts'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

/** An IndexedDB whose `open` behaves like a private window's or a blocked origin's. */
function brokenIndexedDB(open: () => IDBOpenDBRequest): IDBFactory {
  return { open } as unknown as IDBFactory
}

/** An open request that fails a moment later with `error`, as blocked storage does. */
function failingRequest(error: DOMException): IDBOpenDBRequest {
  const request = { error: null, onerror: null } as unknown as IDBOpenDBRequest & { error: DOMException | null }
  setTimeout(() => {
    request.error = error
    request.onerror?.(new Event('error'))
  }, 0)
  return request
}

describe('openBrowserStores', () => {
  it('opens persistent IndexedDB stores when IndexedDB works, leaving no probe behind', async () => {
    const indexedDB = freshIndexedDB()
    const stores = await openBrowserStores({ indexedDB })
    expect([stores.persistent, stores.notice]).toEqual([true, undefined])
    await stores.config.set('model', 'gpt-a')
    const { revision } = await stores.sessions.commit('s1', utf8('turns'), undefined)
    const reloaded = await openBrowserStores({ indexedDB })
    expect([await reloaded.config.get('model'), await reloaded.sessions.load('s1')]).toEqual(['gpt-a', { bytes: utf8('turns'), revision }])
    expect(await rawEntries(indexedDB, 'fxterm-config')).toEqual([['model', 'gpt-a']])
  })

  it('falls back to memory stores with a notice when indexedDB.open throws', async () => {
    const indexedDB = brokenIndexedDB(() => {
      throw new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError')
    })
    const stores = await openBrowserStores({ indexedDB })
    expect([stores.persistent, stores.notice]).toEqual([
      false,
      'Storage is unavailable in this browser (IndexedDB failed with InvalidStateError), so nothing will be saved after this tab closes.',
    ])
    // The memory stores keep the contracts for as long as the tab lives.
    const first = await stores.sessions.commit('s1', utf8('a'), undefined)
    await expect(stores.sessions.commit('s1', utf8('b'), undefined)).rejects.toMatchObject({ code: ErrorCode.FX_SESSION_REVISION_CONFLICT })
    expect(await stores.sessions.load('s1')).toEqual({ bytes: utf8('a'), revision: first.revision })
    expect(await stores.history.append('/w', 'x'.repeat(64 * 1024 + 1), 1)).toBe('record_too_large')
    expect(await stores.oauth.remove(undefined)).toBe('missing')
  })

  it('falls back when the open request fails', async () => {
    const indexedDB = brokenIndexedDB(() => failingRequest(new DOMException('denied', 'UnknownError')))
    const stores = await openBrowserStores({ indexedDB })
    expect([stores.persistent, stores.notice]).toEqual([
      false,
      'Storage is unavailable in this browser (IndexedDB failed with UnknownError), so nothing will be saved after this tab closes.',
    ])
  })

  it('falls back when the open request never answers', async () => {
    const indexedDB = brokenIndexedDB(() => ({}) as IDBOpenDBRequest)
    const stores = await openBrowserStores({ indexedDB, probeTimeoutMs: 20 })
    expect([stores.persistent, stores.notice]).toEqual([
      false,
      'Storage is unavailable in this browser (IndexedDB did not answer within 20 ms), so nothing will be saved after this tab closes.',
    ])
  })

  it('falls back when the browser has no IndexedDB at all', async () => {
    vi.stubGlobal('indexedDB', undefined)
    const stores = await openBrowserStores()
    expect([stores.persistent, stores.notice]).toEqual([
      false,
      'Storage is unavailable in this browser (IndexedDB is missing), so nothing will be saved after this tab closes.',
    ])
  })

  it('asks for persistent storage once per page and shrugs off a refusal', async () => {
    const persist = vi.fn(() => Promise.reject(new Error('not allowed')))
    vi.stubGlobal('navigator', { storage: { persist } })
    vi.resetModules() // a fresh module: "once per page" is module state
    const { openBrowserStores: openFresh } = await import('./open-browser-stores.ts')
    const indexedDB = freshIndexedDB()
    await openFresh({ indexedDB })
    await openFresh({ indexedDB, namespace: 'other' })
    expect(persist).toHaveBeenCalledTimes(1)
  })

  it('does not ask for persistent storage when it falls back to memory', async () => {
    const persist = vi.fn(() => Promise.resolve(true))
    vi.stubGlobal('navigator', { storage: { persist } })
    vi.resetModules()
    const { openBrowserStores: openFresh } = await import('./open-browser-stores.ts')
    await openFresh({ indexedDB: brokenIndexedDB(() => failingRequest(new DOMException('denied', 'UnknownError'))) })
    expect(persist).not.toHaveBeenCalled()
  })

  it('keeps two namespaces apart', async () => {
    const indexedDB = freshIndexedDB()
    const left = await openBrowserStores({ indexedDB, namespace: 'left' })
    const right = await openBrowserStores({ indexedDB, namespace: 'right' })
    await left.history.append('/w', 'left prompt', 1)
    await left.oauth.commit(utf8('token'), undefined)
    expect([await right.history.load('/w', 10), await right.oauth.load()]).toEqual([[], null])
  })
})
