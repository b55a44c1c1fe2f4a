/**
 * The reference contracts as test suites, run against both the IndexedDB and the memory stores
 * so the two are held to the same answers. Each test gets a fresh store from `make`.
 */
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../src/shared/errors.ts'
import type { HistoryLimits } from '../../src/engine-worker/stores/history-rules.ts'
import { rejectionOf, utf8 } from './idb.ts'
import type { AsyncConfigStore, AsyncOAuthSessionStore, AsyncPromptHistoryStore, AsyncSessionStore } from '../../src/shared/stores/types.ts'

export function configStoreContract(name: string, make: () => AsyncConfigStore): void {
  describe(`${name} (config contract)`, () => {
    it('answers null for an id that was never set', async () => {
      expect(await make().get('model')).toBeNull()
    })

    it('returns what was set, the latest value per id', async () => {
      const store = make()
      await store.set('model', 'gpt-a')
      await store.set('mode', 'plan')
      await store.set('model', 'gpt-b')
      expect([await store.get('model'), await store.get('mode'), await store.get('provider')]).toEqual(['gpt-b', 'plan', null])
    })

    it('keeps an empty string apart from unset', async () => {
      const store = make()
      await store.set('mode', '')
      expect(await store.get('mode')).toBe('')
    })
  })
}

export function promptHistoryStoreContract(name: string, make: (limits?: HistoryLimits) => AsyncPromptHistoryStore): void {
  describe(`${name} (prompt history contract)`, () => {
    it('loads prompts oldest to newest', async () => {
      const store = make()
      for (const [i, prompt] of ['one', 'two', 'three'].entries()) expect(await store.append('/w', prompt, 1000 + i)).toBeUndefined()
      expect(await store.load('/w', 10)).toEqual(['one', 'two', 'three'])
    })

    it('loads only the newest `limit` prompts, still oldest first, and none for a zero limit', async () => {
      const store = make()
      for (const prompt of ['a', 'b', 'c', 'd']) await store.append('/w', prompt, 1)
      expect(await store.load('/w', 2)).toEqual(['c', 'd'])
      expect(await store.load('/w', 0)).toEqual([])
      expect(await store.load('/empty', 5)).toEqual([])
    })

    it("answers 'duplicate' and stores nothing when the latest prompt matches", async () => {
      const store = make()
      await store.append('/w', 'ls', 1)
      expect(await store.append('/w', 'ls', 2)).toBe('duplicate')
      // Only the latest counts: an older equal prompt is appended again.
      await store.append('/w', 'pwd', 3)
      expect(await store.append('/w', 'ls', 4)).toBeUndefined()
      expect(await store.load('/w', 10)).toEqual(['ls', 'pwd', 'ls'])
    })

    it("answers 'record_too_large' above maxRecordBytes of UTF-8 and stores nothing", async () => {
      const store = make({ maxRecordBytes: 10 })
      expect(await store.append('/w', 'é'.repeat(5), 1)).toBeUndefined() // exactly 10 bytes
      expect(await store.append('/w', 'é'.repeat(5) + 'x', 2)).toBe('record_too_large') // 11 bytes, 6 units
      expect(await store.append('/w', '😀😀😀', 3)).toBe('record_too_large') // 12 bytes, 6 units
      expect(await store.load('/w', 10)).toEqual(['ééééé'])
    })

    it('declines a prompt above the default 64 KiB cap', async () => {
      const store = make()
      expect(await store.append('/w', 'x'.repeat(64 * 1024), 1)).toBeUndefined()
      expect(await store.append('/w', 'y'.repeat(64 * 1024 + 1), 2)).toBe('record_too_large')
    })

    it('keeps only the newest maxEntries prompts', async () => {
      const store = make({ maxEntries: 3 })
      for (const prompt of ['1', '2', '3', '4', '5']) await store.append('/w', prompt, 1)
      expect(await store.load('/w', 10)).toEqual(['3', '4', '5'])
      await store.append('/w', '6', 1)
      expect(await store.load('/w', 10)).toEqual(['4', '5', '6'])
    })

    it('keeps each workspace root apart, and clear empties only its own root', async () => {
      const store = make()
      await store.append('/a', 'in a', 1)
      await store.append('/b', 'in b', 1)
      await store.append('/a/b', 'in a/b', 1)
      expect(await store.load('/a', 10)).toEqual(['in a'])
      await store.clear('/a')
      expect([await store.load('/a', 10), await store.load('/b', 10), await store.load('/a/b', 10)]).toEqual([[], ['in b'], ['in a/b']])
      // After a clear the same prompt is new again, not a duplicate.
      expect(await store.append('/a', 'in a', 2)).toBeUndefined()
    })
  })
}

export function sessionStoreContract(name: string, make: (now?: () => number) => AsyncSessionStore): void {
  describe(`${name} (session contract)`, () => {
    it('loads null for a session that was never committed', async () => {
      expect(await make().load('s1')).toBeNull()
    })

    it('takes undefined for the first commit, then the revision it returned', async () => {
      const store = make()
      const first = await store.commit('s1', utf8('v1'), undefined)
      expect(await store.load('s1')).toEqual({ bytes: utf8('v1'), revision: first.revision })
      const second = await store.commit('s1', utf8('v2'), first.revision)
      expect(second.revision).not.toBe(first.revision)
      expect(await store.load('s1')).toEqual({ bytes: utf8('v2'), revision: second.revision })
    })

    it('refuses a stale revision with FX_SESSION_REVISION_CONFLICT and keeps the record', async () => {
      const store = make()
      const first = await store.commit('s1', utf8('v1'), undefined)
      const second = await store.commit('s1', utf8('v2'), first.revision)
      const error = await rejectionOf(store.commit('s1', utf8('stale'), first.revision))
      expect(error.code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
      expect(error.message).toContain('s1')
      expect(await store.load('s1')).toEqual({ bytes: utf8('v2'), revision: second.revision })
    })

    it('refuses undefined over an existing record, and a revision for a record that is gone', async () => {
      const store = make()
      const first = await store.commit('s1', utf8('v1'), undefined)
      expect((await rejectionOf(store.commit('s1', utf8('again'), undefined))).code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
      expect(await store.load('s1')).toEqual({ bytes: utf8('v1'), revision: first.revision })
      expect((await rejectionOf(store.commit('s2', utf8('x'), first.revision))).code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
      expect(await store.load('s2')).toBeNull()
    })

    it('gives a new revision after every write, even after a remove and a fresh first commit', async () => {
      const store = make()
      const seen = new Set<string>()
      let revision: string | undefined
      for (let i = 0; i < 5; i++) seen.add((revision = (await store.commit('s1', utf8(`v${i}`), revision)).revision))
      await store.remove('s1')
      const fresh = await store.commit('s1', utf8('new'), undefined)
      seen.add(fresh.revision)
      expect(seen.size).toBe(6)
      // The revision from before the remove must not match the new record.
      expect((await rejectionOf(store.commit('s1', utf8('old tab'), revision))).code).toBe(ErrorCode.FX_SESSION_REVISION_CONFLICT)
    })

    it('stores a copy of exactly the bytes given, not the caller’s buffer', async () => {
      const store = make()
      const buffer = utf8('xxHELLOxx')
      const view = buffer.subarray(2, 7)
      await store.commit('s1', view, undefined)
      buffer.fill(0)
      const loaded = await store.load('s1')
      expect(loaded?.bytes).toEqual(utf8('HELLO'))
      expect(loaded?.bytes.buffer.byteLength).toBe(5)
    })

    it('lists every session with its updatedAtMs, newest first', async () => {
      let clock = 1000
      const store = make(() => clock)
      const a = await store.commit('a', utf8('a'), undefined)
      clock = 2000
      await store.commit('b', utf8('b'), undefined)
      clock = 3000
      await store.commit('a', utf8('a2'), a.revision)
      expect(await store.list()).toEqual([
        { id: 'a', updatedAtMs: 3000 },
        { id: 'b', updatedAtMs: 2000 },
      ])
    })

    it('removes a session from load and list, and removing an unknown id is harmless', async () => {
      const store = make()
      await store.commit('a', utf8('a'), undefined)
      await store.commit('b', utf8('b'), undefined)
      await store.remove('a')
      await store.remove('never')
      expect(await store.load('a')).toBeNull()
      expect((await store.list()).map((entry) => entry.id)).toEqual(['b'])
    })
  })
}

export function oauthSessionStoreContract(name: string, make: () => AsyncOAuthSessionStore): void {
  describe(`${name} (OAuth session contract)`, () => {
    it('loads null when nobody is signed in', async () => {
      expect(await make().load()).toBeNull()
    })

    it('round trips the bytes, with undefined first and the returned revision after', async () => {
      const store = make()
      const first = await store.commit(utf8('token-1'), undefined)
      expect(await store.load()).toEqual({ bytes: utf8('token-1'), revision: first.revision })
      const second = await store.commit(utf8('token-2'), first.revision)
      expect(second.revision).not.toBe(first.revision)
      expect(await store.load()).toEqual({ bytes: utf8('token-2'), revision: second.revision })
    })

    it('refuses a stale or undefined commit with FX_OAUTH_SESSION_REVISION_CONFLICT and keeps the record', async () => {
      const store = make()
      const first = await store.commit(utf8('token-1'), undefined)
      const second = await store.commit(utf8('token-2'), first.revision)
      expect((await rejectionOf(store.commit(utf8('stale'), first.revision))).code).toBe(ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT)
      expect((await rejectionOf(store.commit(utf8('blind'), undefined))).code).toBe(ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT)
      expect(await store.load()).toEqual({ bytes: utf8('token-2'), revision: second.revision })
    })

    it("answers 'missing' when there is nothing to remove", async () => {
      const store = make()
      expect(await store.remove(undefined)).toBe('missing')
      expect(await store.remove('1-abc')).toBe('missing')
    })

    it('removes with the current revision and refuses a stale one', async () => {
      const store = make()
      const first = await store.commit(utf8('token-1'), undefined)
      const second = await store.commit(utf8('token-2'), first.revision)
      expect((await rejectionOf(store.remove(first.revision))).code).toBe(ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT)
      expect((await rejectionOf(store.remove(undefined))).code).toBe(ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT)
      expect(await store.load()).toEqual({ bytes: utf8('token-2'), revision: second.revision })
      expect(await store.remove(second.revision)).toBe(true)
      expect(await store.load()).toBeNull()
      expect(await store.remove(second.revision)).toBe('missing')
      // Signing in again starts from undefined.
      expect((await store.commit(utf8('token-3'), undefined)).revision).toEqual(expect.any(String))
    })
  })
}
