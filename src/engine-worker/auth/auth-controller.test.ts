import { describe, expect, it } from 'vitest'
import { memoryOAuthSessionStore } from '../../page/stores/memory-stores.ts'
import type { AuthDisplayState, HostNotice } from '../../shared/messages/engine-frames.ts'
import { createAccountCredentials } from './account-credentials.ts'
import { type AuthControllerOptions, createAuthController } from './auth-controller.ts'
import { createCredentialStore } from './credential-store.ts'
import { createKeyStore } from './key-store.ts'
import { createWithLock } from './web-lock.ts'
import { fakeTime, useMockIssuer } from '../../../test/support/auth-issuer.ts'

const issuer = useMockIssuer()

/** The waits of `until`, checked again whenever a controller shows a state or opens a URL. */
const waiting = new Set<() => void>()
const changed = () => {
  for (const check of [...waiting]) check()
}

/** Resolves once `check` holds: checked now and after every change a test can see. */
function until(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const attempt = () => {
      if (!check()) return
      waiting.delete(attempt)
      resolve()
    }
    waiting.add(attempt)
    attempt()
  })
}

/** A controller over the mock issuer; `shown` is everything the engine would receive. */
function setup(openUrl: (url: string) => Promise<boolean> = async () => true, extra: Pick<AuthControllerOptions, 'refuses'> = {}) {
  const shown: AuthDisplayState[] = []
  const notices: HostNotice[] = []
  const opened: string[] = []
  const signedOut: number[] = []
  const time = fakeTime()
  const keyStore = memoryOAuthSessionStore()
  const oauth = memoryOAuthSessionStore()
  const credentials = createAccountCredentials({ store: createCredentialStore(oauth), keys: createKeyStore(keyStore), fetch, now: time.now, withLock: createWithLock(undefined), lockName: 'l' })
  const controller = createAuthController({
    signIn: { issuer: issuer.get().issuer, clientId: 'fxterm-test' },
    credentials,
    keys: createKeyStore(keyStore),
    fetch: () => fetch,
    openUrl: (url) => (opened.push(url), changed(), openUrl(url)),
    show: (state) => (shown.push(state), changed()),
    notice: (notice) => notices.push(notice),
    onSignedOut: () => signedOut.push(1),
    ...extra,
    now: time.now,
    // The poll interval passes on the fake clock; each poll still yields a turn of the event
    // loop, so the test can act in between.
    sleep: async (ms, signal) => {
      await new Promise((resolve) => setImmediate(resolve))
      await time.sleep(ms, signal)
    },
  })
  return { controller, shown, notices, opened, signedOut, oauth, keyStore }
}

const last = (shown: AuthDisplayState[]) => shown.at(-1)?.state

describe('the worker side of /login, /logout and /key', () => {
  it('opens the complete URL once, shows only URL and code, and never shows a token', async () => {
    await issuer.get().script({ pending: 3 })
    const { controller, shown, opened, oauth } = setup()
    controller.handle('login')
    await until(() => last(shown) === 'signed_in')
    const waiting = shown.find((s) => s.state === 'waiting') as Extract<AuthDisplayState, { state: 'waiting' }>
    expect(shown.map((s) => s.state)).toEqual(['preparing', 'waiting', 'signed_in'])
    expect(waiting.url).toBe(`${issuer.get().url}/activate`)
    expect(opened).toEqual([`${issuer.get().url}/activate?user_code=${waiting.code}`])
    expect(await oauth.load()).not.toBeNull()
    const tokens = await issuer.get().tokens()
    const everything = JSON.stringify(shown)
    for (const secret of [...tokens.access, ...tokens.refresh]) expect(everything).not.toContain(secret)
  })

  it('an openUrl that throws or answers false only leaves the printed URL; Enter opens it again', async () => {
    await issuer.get().script({ pending: 1_000_000 })
    const { controller, shown, opened } = setup(async () => {
      throw new Error('popup blocked')
    })
    controller.handle('login')
    await until(() => last(shown) === 'waiting')
    controller.handle('login_reopen')
    await until(() => opened.length === 2)
    expect(opened[0]).toBe(opened[1])
    controller.handle('login_cancel')
    await until(() => last(shown) === 'cancelled')
  })

  it('without a client id, /login says what the page must pass', async () => {
    const { shown } = setup()
    const bare = createAuthController({
      signIn: { issuer: issuer.get().issuer },
      credentials: createAccountCredentials({ store: createCredentialStore(memoryOAuthSessionStore()), keys: createKeyStore(null), fetch, now: Date.now, withLock: createWithLock(undefined), lockName: 'l' }),
      keys: createKeyStore(null),
      fetch: () => fetch,
      openUrl: async () => true,
      show: (state) => (shown.push(state), changed()),
      notice: () => {},
      onSignedOut: () => {},
    })
    bare.handle('login')
    await until(() => last(shown) === 'failed')
    expect(shown.at(-1)).toEqual({ state: 'failed', message: 'sign-in is not set up on this page: the app must pass signIn: { clientId } (the OAuth client id its issuer gave it). /key saves an API key instead.' })
  })

  it('/logout revokes, forgets, tells the other tabs, and says Signed out.', async () => {
    const { controller, shown, signedOut, oauth } = setup()
    controller.handle('login')
    await until(() => last(shown) === 'signed_in')
    controller.handle('logout')
    await until(() => last(shown) === 'signed_out')
    expect(shown.at(-1)).toEqual({ state: 'signed_out', message: 'Signed out.', credential: 'none' })
    expect(signedOut).toEqual([1])
    expect(await oauth.load()).toBeNull()
    expect((await issuer.get().tokens()).revoked).toHaveLength(1)
  })

  it('a typed key is captured here: the engine gets only its length, and the store gets the key', async () => {
    const { controller, shown, keyStore } = setup()
    controller.handle('key')
    expect(controller.captureKeys('vck_')).toBe(true)
    controller.captureKeys('\x1b[200~secret42\x1b[201~')
    controller.captureKeys('\r')
    await until(() => last(shown) === 'key_saved')
    expect(shown).toEqual([
      { state: 'key_entry', length: 0 },
      { state: 'key_entry', length: 4 },
      { state: 'key_entry', length: 12 },
      { state: 'key_entry', length: 12 },
      { state: 'key_saved', provider: 'ai-gateway', credential: 'key' },
    ])
    expect(new TextDecoder().decode((await keyStore.load())!.bytes)).toBe('{"v":3,"keys":{"ai-gateway":{"key":"vck_secret42","origin":"https://ai-gateway.vercel.sh"}}}')
    // Once saved, keys are the engine's again.
    expect(controller.captureKeys('x')).toBe(false)
  })

  it('/key for a provider this page cannot reach says why, asks for nothing and takes no keys', async () => {
    const refusal = 'deepseek does not accept requests from a browser page'
    const { controller, shown, notices, keyStore } = setup(undefined, { refuses: (provider) => (provider === 'deepseek' ? refusal : undefined) })
    controller.handle('key', 'deepseek')
    expect(notices).toEqual([{ text: refusal, level: 'error' }])
    expect(shown).toEqual([{ state: 'key_cancelled' }])
    // What is typed next is a prompt again, not a key.
    expect(controller.captureKeys('sk-')).toBe(false)
    controller.handle('key', 'openai')
    expect(shown.at(-1)).toEqual({ state: 'key_entry', length: 0 })
    expect(await keyStore.load()).toBeNull()
  })

  it('Esc while typing a key saves nothing', async () => {
    const { controller, shown, keyStore } = setup()
    controller.handle('key')
    controller.captureKeys('abc')
    controller.captureKeys('\x1b')
    expect(shown.at(-1)).toEqual({ state: 'key_cancelled' })
    expect(await keyStore.load()).toBeNull()
  })
})
