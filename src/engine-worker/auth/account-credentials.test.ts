import { describe, expect, it } from 'vitest'
import { memoryOAuthSessionStore } from '../../page/stores/memory-stores.ts'
import type { OAuthSessionStore } from '../../shared/stores/types.ts'
import { createAccountCredentials, type AccountCredentials } from './account-credentials.ts'
import { createCredentialStore } from './credential-store.ts'
import { createKeyStore } from './key-store.ts'
import { runDeviceFlow } from './device-flow.ts'
import { resolveEndpoints } from './issuer-config.ts'
import { decodeRecord } from './token-record.ts'
import { createWithLock } from './web-lock.ts'
import { fakeTime, useMockIssuer } from '../../../test/support/auth-issuer.ts'

const issuer = useMockIssuer()

/** One tab: its own credentials over the shared store and lock, like two tabs of one page. */
function tab(store: OAuthSessionStore, time: ReturnType<typeof fakeTime>, lock = createWithLock(undefined), extra: { envKey?: string; keyStore?: OAuthSessionStore } = {}) {
  const expired: string[] = []
  const credentials = createAccountCredentials({
    store: createCredentialStore(store),
    keys: createKeyStore(extra.keyStore ?? null),
    fetch,
    now: time.now,
    withLock: lock,
    lockName: 'fxterm-signin:test',
    ...(extra.envKey ? { envKey: extra.envKey } : {}),
    onExpired: (message) => expired.push(message),
  })
  return { credentials, expired }
}

async function signIn(credentials: AccountCredentials, time: ReturnType<typeof fakeTime>) {
  const endpoints = await resolveEndpoints({ issuer: issuer.get().issuer }, fetch)
  const record = await runDeviceFlow({ endpoints, clientId: 'fxterm-test', scope: 'openid offline_access', fetch, now: time.now, sleep: time.sleep, signal: new AbortController().signal, onState: () => {} })
  await credentials.signIn(record)
  return record
}

const refreshes = async () => (await issuer.get().log()).filter((entry) => entry.grant === 'refresh_token').length

describe('account credentials', () => {
  it('stores the sign-in with no expected revision first, and uses its access token as the bearer', async () => {
    const commits: Array<string | undefined> = []
    const inner = memoryOAuthSessionStore()
    const store: OAuthSessionStore = { load: () => inner.load(), remove: (r) => inner.remove(r), commit: (bytes, expected) => (commits.push(expected), inner.commit(bytes, expected)) }
    const time = fakeTime()
    const { credentials } = tab(store, time)
    const record = await signIn(credentials, time)
    expect(commits).toEqual([undefined])
    expect(await credentials.bearer()).toBe(record.accessToken)
    expect(decodeRecord((await inner.load())!.bytes)).toEqual(record)
    expect(await credentials.kind()).toBe('signed_in')
  })

  it('a token that is not due is used without taking the lock', async () => {
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const taken: string[] = []
    const plain = createWithLock(undefined)
    const counting = <T>(name: string, fn: () => Promise<T>) => (taken.push(name), plain(name, fn))
    const { credentials } = tab(store, time, counting)
    const record = await signIn(credentials, time)
    expect(await credentials.bearer()).toBe(record.accessToken)
    expect(await credentials.bearer()).toBe(record.accessToken)
    expect(taken).toEqual([])
  })

  it('a restart with the same store is signed in without asking the issuer anything', async () => {
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const record = await signIn(tab(store, time).credentials, time)
    const before = (await issuer.get().log()).length
    const restarted = tab(store, time).credentials
    expect(await restarted.bearer()).toBe(record.accessToken)
    expect((await issuer.get().log()).length).toBe(before)
  })

  it('refreshes shortly before expiry, and the rotated refresh token is stored', async () => {
    await issuer.get().script({ accessTtls: [120, 3600] })
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const { credentials } = tab(store, time)
    await signIn(credentials, time)
    expect(await refreshes()).toBe(0)
    time.advance(61_000) // 59 s left: inside the 60 s margin
    const bearer = await credentials.bearer()
    const tokens = await issuer.get().tokens()
    expect(bearer).toBe(tokens.access[1])
    expect(decodeRecord((await store.load())!.bytes)?.refreshToken).toBe(tokens.refresh[1])
    expect(await refreshes()).toBe(1)
  })

  it('two tabs at expiry refresh once: the second reads the first one\'s tokens after the lock', async () => {
    await issuer.get().script({ accessTtls: [30, 3600] })
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const lock = createWithLock(undefined)
    const a = tab(store, time, lock).credentials
    const b = tab(store, time, lock).credentials
    await signIn(a, time)
    const [fromA, fromB] = await Promise.all([a.bearer(), b.bearer()])
    const tokens = await issuer.get().tokens()
    expect(fromA).toBe(tokens.access[1])
    expect(fromB).toBe(tokens.access[1])
    expect(await refreshes()).toBe(1)
  })

  it('after a 401 it refreshes once and hands back the new token; a second 401 gets nothing', async () => {
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const { credentials } = tab(store, time)
    const record = await signIn(credentials, time)
    const retried = await credentials.retryBearer(record.accessToken)
    expect(retried).toBe((await issuer.get().tokens()).access[1])
    expect(await credentials.retryBearer('fxat_some-other-token')).toBeUndefined()
    expect(await refreshes()).toBe(1)
  })

  it('a rejected refresh token signs out with a message that names no token', async () => {
    await issuer.get().script({ accessTtls: [10], refreshOutcome: 'reject' })
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const { credentials, expired } = tab(store, time)
    const record = await signIn(credentials, time)
    expect(await credentials.bearer()).toBeUndefined()
    expect(await store.load()).toBeNull()
    expect(expired).toHaveLength(1)
    expect(expired[0]).toContain('Run /login again')
    expect(expired[0]).not.toContain(record.refreshToken!)
    expect(expired[0]).toContain('***')
  })

  it('a commit conflict is read again and retried once', async () => {
    await issuer.get().script({ accessTtls: [10, 3600] })
    const inner = memoryOAuthSessionStore()
    const time = fakeTime()
    let conflicts = 0
    const store: OAuthSessionStore = {
      load: () => inner.load(),
      remove: (r) => inner.remove(r),
      commit: async (bytes, expected) => {
        // Another tab writes the same record between this tab's read and its commit, once.
        if (expected !== undefined && conflicts === 0) {
          conflicts++
          const current = await inner.load()
          await inner.commit(current!.bytes, current!.revision)
        }
        return inner.commit(bytes, expected)
      },
    }
    const { credentials } = tab(store, time)
    await signIn(credentials, time)
    const bearer = await credentials.bearer()
    expect(conflicts).toBe(1)
    expect(bearer).toBe((await issuer.get().tokens()).access[1])
    expect(decodeRecord((await inner.load())!.bytes)?.accessToken).toBe(bearer)
  })

  it('sign-out revokes the refresh token and removes the record', async () => {
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const { credentials } = tab(store, time)
    const record = await signIn(credentials, time)
    expect(await credentials.signOut()).toEqual({ wasSignedIn: true })
    expect((await issuer.get().tokens()).revoked).toEqual([record.refreshToken])
    expect(await store.load()).toBeNull()
    expect(await credentials.bearer()).toBeUndefined()
  })

  it('a failed revocation is a warning, and the sign-in is forgotten anyway', async () => {
    await issuer.get().script({ revokeStatus: 503 })
    const store = memoryOAuthSessionStore()
    const time = fakeTime()
    const { credentials } = tab(store, time)
    await signIn(credentials, time)
    expect(await credentials.signOut()).toEqual({ wasSignedIn: true, warning: 'The sign-in server did not confirm the sign-out (HTTP 503); this tab forgot the sign-in anyway.' })
    expect(await store.load()).toBeNull()
  })

  it('without a sign-in, a saved key is the bearer, then the app\'s env key', async () => {
    const keyStore = memoryOAuthSessionStore()
    const time = fakeTime()
    const { credentials } = tab(memoryOAuthSessionStore(), time, undefined, { envKey: 'env-key-123', keyStore })
    expect(await credentials.kind()).toBe('env')
    expect(await credentials.bearer()).toBe('env-key-123')
    await createKeyStore(keyStore).save('vck_saved_key_456')
    expect(await credentials.kind()).toBe('key')
    expect(await credentials.bearer()).toBe('vck_saved_key_456')
    expect(await createKeyStore(keyStore).clear()).toBe(true)
    expect(await credentials.bearer()).toBe('env-key-123')
  })
})
