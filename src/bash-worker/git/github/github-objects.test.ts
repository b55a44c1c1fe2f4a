import { describe, expect, it } from 'vitest'
import type { GithubApi } from './github-api'
import { fetchCommit, GITHUB_MAX_BYTES, GITHUB_MAX_FILES, type ApiTreeEntry, type ObjectStore } from './github-objects'

/** An API whose commit lists `entries`, and a store that must never be written. */
function listing(entries: ApiTreeEntry[]): { api: GithubApi; store: ObjectStore } {
  const get = async <T>(path: string): Promise<T> =>
    (path.startsWith('/git/commits/') ? { sha: 'c', tree: { sha: 't' }, parents: [] } : { sha: 't', tree: entries, truncated: false }) as T
  const api = { get, getOrNull: get, post: get, patch: get, raw: async () => new Uint8Array() } as GithubApi
  const store: ObjectStore = { has: async () => false, write: async () => { throw new Error('nothing may be written') } }
  return { api, store }
}

const blob = (i: number, size: number): ApiTreeEntry => ({ path: `f${i}`, mode: '100644', type: 'blob', sha: i.toString(16).padStart(40, '0'), size })

describe("the caps on what GitHub's API brings in", () => {
  it('refuses more files than the cap, with the numbers, before downloading', async () => {
    const { api, store } = listing(Array.from({ length: GITHUB_MAX_FILES + 1 }, (_, i) => blob(i, 1)))
    await expect(fetchCommit(api, store, 'c')).rejects.toThrow("refusing: 20,001 files is above fxterm's limit of 20,000")
  })

  it('refuses more bytes than the cap, with the numbers', async () => {
    const { api, store } = listing([blob(1, GITHUB_MAX_BYTES), blob(2, 1024 * 1024)])
    await expect(fetchCommit(api, store, 'c')).rejects.toThrow("refusing: 201.0 MB of files is above fxterm's limit of 200.0 MB")
  })

  it('refuses a submodule', async () => {
    const { api, store } = listing([{ path: 'vendor/lib', mode: '160000', type: 'commit', sha: 'a'.repeat(40) }])
    await expect(fetchCommit(api, store, 'c')).rejects.toThrow("submodules are not supported ('vendor/lib' is one); nothing was changed")
  })
})
