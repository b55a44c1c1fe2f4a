import { describe, expect, it } from 'vitest'
import { configStoreContract } from '../../../test/support/store-contract-suites.ts'
import { idbConfigStore } from './idb-config-store.ts'
import { freshIndexedDB, rawStore } from '../../../test/support/idb.ts'

configStoreContract('idbConfigStore', () => idbConfigStore({ indexedDB: freshIndexedDB() }))

describe('idbConfigStore', () => {
  it('survives a reload: a new store on the same database reads what the old one set', async () => {
    const indexedDB = freshIndexedDB()
    await idbConfigStore({ indexedDB }).set('model', 'gpt-a')
    expect(await idbConfigStore({ indexedDB }).get('model')).toBe('gpt-a')
  })

  it('keeps two namespaces on one origin apart', async () => {
    const indexedDB = freshIndexedDB()
    const left = idbConfigStore({ namespace: 'left', indexedDB })
    const right = idbConfigStore({ namespace: 'right', indexedDB })
    await left.set('model', 'from-left')
    expect([await left.get('model'), await right.get('model')]).toEqual(['from-left', null])
  })

  it('stores in the database fxterm-config by default', async () => {
    const indexedDB = freshIndexedDB()
    await idbConfigStore({ indexedDB }).set('mode', 'plan')
    expect(await rawStore(indexedDB, 'fxterm-config', 'readonly', (store) => store.get('mode'))).toBe('plan')
  })

  it('treats a stored value that is not a string as unset', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbConfigStore({ indexedDB })
    await store.set('model', 'x') // creates the database
    await rawStore(indexedDB, 'fxterm-config', 'readwrite', (raw) => raw.put({ bogus: true }, 'model'))
    expect(await store.get('model')).toBeNull()
  })

  it('works on the global indexedDB through idb-keyval createStore when none is passed', async () => {
    const namespace = `global-${crypto.randomUUID()}` // the global database is shared by this file's tests
    await idbConfigStore({ namespace }).set('provider', 'demo')
    expect(await idbConfigStore({ namespace }).get('provider')).toBe('demo')
  })

  it('rejects an empty namespace instead of writing to a nameless database', () => {
    expect(() => idbConfigStore({ namespace: '' })).toThrow(/namespace must be a non-empty string/)
  })
})
