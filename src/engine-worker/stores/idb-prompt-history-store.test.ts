import { describe, expect, it } from 'vitest'
import { promptHistoryStoreContract } from '../../../test/support/store-contract-suites.ts'
import { idbPromptHistoryStore } from './idb-prompt-history-store.ts'
import { freshIndexedDB, rawEntries } from '../../../test/support/idb.ts'

promptHistoryStoreContract('idbPromptHistoryStore', (limits) => idbPromptHistoryStore({ ...limits, indexedDB: freshIndexedDB() }))

describe('idbPromptHistoryStore', () => {
  it('survives a reload', async () => {
    const indexedDB = freshIndexedDB()
    await idbPromptHistoryStore({ indexedDB }).append('/w', 'hello', 1)
    expect(await idbPromptHistoryStore({ indexedDB }).load('/w', 10)).toEqual(['hello'])
  })

  it('keeps two namespaces apart', async () => {
    const indexedDB = freshIndexedDB()
    await idbPromptHistoryStore({ namespace: 'left', indexedDB }).append('/w', 'left prompt', 1)
    expect(await idbPromptHistoryStore({ namespace: 'right', indexedDB }).load('/w', 10)).toEqual([])
  })

  it('stores one record per prompt with its timestamp, and trimming deletes the oldest records', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbPromptHistoryStore({ indexedDB, maxEntries: 2 })
    await store.append('/w', 'a', 10)
    await store.append('/w', 'b', 20)
    await store.append('/w', 'c', 30)
    expect(await rawEntries(indexedDB, 'fxterm-history')).toEqual([
      [['/w', 2], { value: 'b', timestampMs: 20 }],
      [['/w', 3], { value: 'c', timestampMs: 30 }],
    ])
  })

  it('loses no prompt when two tabs append at once', async () => {
    const indexedDB = freshIndexedDB()
    const tabA = idbPromptHistoryStore({ indexedDB })
    const tabB = idbPromptHistoryStore({ indexedDB })
    await Promise.all([tabA.append('/w', 'from a', 1), tabB.append('/w', 'from b', 1), tabA.append('/w', 'a again', 2)])
    expect((await tabB.load('/w', 10)).sort()).toEqual(['a again', 'from a', 'from b'])
  })
})
