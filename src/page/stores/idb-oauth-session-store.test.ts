import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { oauthSessionStoreContract } from '../../../test/support/store-contract-suites.ts'
import { idbOAuthSessionStore } from './idb-oauth-session-store.ts'
import { containsBytes, freshIndexedDB, rawStore, rejectionOf, utf8 } from '../../../test/support/idb.ts'

oauthSessionStoreContract('idbOAuthSessionStore', () => idbOAuthSessionStore({ indexedDB: freshIndexedDB() }))

const SECRET = utf8('{"access_token":"at-7f3a9c2e51d4","refresh_token":"rt-0b8e6d14c9a2"}')

/** Every byte array inside a stored value, and its strings as UTF-8. */
function storedBytes(value: unknown): Uint8Array[] {
  if (value instanceof Uint8Array) return [value]
  if (typeof value === 'string') return [utf8(value)]
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(storedBytes)
  return []
}

describe('idbOAuthSessionStore', () => {
  it('stores the bytes sealed: an IV and ciphertext, never the plain bytes', async () => {
    const indexedDB = freshIndexedDB()
    const { revision } = await idbOAuthSessionStore({ indexedDB }).commit(SECRET, undefined)
    const record = (await rawStore(indexedDB, 'fxterm-oauth', 'readonly', (raw) => raw.get('session'))) as Record<string, unknown>
    expect(Object.keys(record).sort()).toEqual(['ciphertext', 'iv', 'revision', 'seq'])
    expect(record['revision']).toBe(revision)
    expect((record['iv'] as Uint8Array).length).toBe(12)
    // AES-GCM: ciphertext as long as the plain bytes plus a 16-byte tag.
    expect((record['ciphertext'] as Uint8Array).length).toBe(SECRET.length + 16)
    for (const bytes of storedBytes(record)) {
      expect(containsBytes(bytes, SECRET)).toBe(false)
      expect(containsBytes(bytes, utf8('at-7f3a9c2e51d4'))).toBe(false)
    }
    // The helper does find the secret where it is, so the check above could fail.
    expect(storedBytes({ leaked: SECRET }).some((bytes) => containsBytes(bytes, utf8('at-7f3a9c2e51d4')))).toBe(true)
  })

  it('keeps a non-extractable AES-GCM key beside the record', async () => {
    const indexedDB = freshIndexedDB()
    await idbOAuthSessionStore({ indexedDB }).commit(SECRET, undefined)
    const key = (await rawStore(indexedDB, 'fxterm-oauth', 'readonly', (raw) => raw.get('key'))) as CryptoKey
    expect(key).toBeInstanceOf(CryptoKey)
    expect([key.extractable, key.algorithm.name, [...key.usages].sort()]).toEqual([false, 'AES-GCM', ['decrypt', 'encrypt']])
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow()
  })

  it('seals every write with a fresh IV', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbOAuthSessionStore({ indexedDB })
    const readIv = async () => ((await rawStore(indexedDB, 'fxterm-oauth', 'readonly', (raw) => raw.get('session'))) as { iv: Uint8Array }).iv
    const first = await store.commit(SECRET, undefined)
    const ivA = await readIv()
    await store.commit(SECRET, first.revision)
    expect(await readIv()).not.toEqual(ivA)
  })

  it('survives a reload: a new store opens what the old one sealed', async () => {
    const indexedDB = freshIndexedDB()
    const { revision } = await idbOAuthSessionStore({ indexedDB }).commit(SECRET, undefined)
    expect(await idbOAuthSessionStore({ indexedDB }).load()).toEqual({ bytes: SECRET, revision })
  })

  it('keeps two namespaces apart', async () => {
    const indexedDB = freshIndexedDB()
    await idbOAuthSessionStore({ namespace: 'left', indexedDB }).commit(SECRET, undefined)
    const right = idbOAuthSessionStore({ namespace: 'right', indexedDB })
    expect([await right.load(), await right.remove(undefined)]).toEqual([null, 'missing'])
  })

  it('loads null, not garbage, when the key is gone, and lets a new sign-in replace the record', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbOAuthSessionStore({ indexedDB })
    await store.commit(SECRET, undefined)
    await rawStore(indexedDB, 'fxterm-oauth', 'readwrite', (raw) => raw.delete('key'))
    expect(await store.load()).toBeNull()
    // A store that never saw the record unreadable still refuses to overwrite it blindly.
    expect((await rejectionOf(idbOAuthSessionStore({ indexedDB }).commit(utf8('other'), undefined))).code).toBe(
      ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT,
    )
    const { revision } = await store.commit(utf8('new token'), undefined)
    expect(await idbOAuthSessionStore({ indexedDB }).load()).toEqual({ bytes: utf8('new token'), revision })
  })

  it('loads null for a tampered record and lets remove(undefined) clear it', async () => {
    const indexedDB = freshIndexedDB()
    const store = idbOAuthSessionStore({ indexedDB })
    await store.commit(SECRET, undefined)
    const record = (await rawStore(indexedDB, 'fxterm-oauth', 'readonly', (raw) => raw.get('session'))) as { ciphertext: Uint8Array }
    record.ciphertext[0]! ^= 1
    await rawStore(indexedDB, 'fxterm-oauth', 'readwrite', (raw) => raw.put(record, 'session'))
    expect(await store.load()).toBeNull()
    expect(await store.remove(undefined)).toBe(true)
    expect(await store.remove(undefined)).toBe('missing')
  })

  it('lets exactly one of two tabs win a race to sign in', async () => {
    const indexedDB = freshIndexedDB()
    const tabA = idbOAuthSessionStore({ indexedDB })
    const tabB = idbOAuthSessionStore({ indexedDB })
    const results = await Promise.allSettled([tabA.commit(utf8('A'), undefined), tabB.commit(utf8('B'), undefined)])
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected'])
    const lost = results.find((result) => result.status === 'rejected') as PromiseRejectedResult
    expect(lost.reason.code).toBe(ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT)
    // Whichever tab won, both read its bytes back with the key that was stored with them.
    const winner = results[0]!.status === 'fulfilled' ? 'A' : 'B'
    expect((await tabA.load())?.bytes).toEqual(utf8(winner))
    expect((await tabB.load())?.bytes).toEqual(utf8(winner))
  })
})
