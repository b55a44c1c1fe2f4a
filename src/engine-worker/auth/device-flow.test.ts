import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { runDeviceFlow, type DeviceFlowState } from './device-flow.ts'
import { resolveEndpoints } from './issuer-config.ts'
import { fakeTime, useMockIssuer } from '../../../test/support/auth-issuer.ts'
import type { SignInError } from './auth-errors.ts'

const issuer = useMockIssuer()

async function signIn(options: { signal?: AbortSignal; fetch?: typeof fetch } = {}) {
  const time = fakeTime()
  const states: DeviceFlowState[] = []
  const fetchFn = options.fetch ?? fetch
  const endpoints = await resolveEndpoints({ issuer: issuer.get().issuer }, fetchFn)
  const run = runDeviceFlow({
    endpoints,
    clientId: 'fxterm-test',
    scope: 'openid offline_access',
    fetch: fetchFn,
    now: time.now,
    sleep: time.sleep,
    signal: options.signal ?? new AbortController().signal,
    onState: (state) => states.push(state),
  })
  return { run, states, time }
}

async function failure(run: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = (await run.then(() => null, (e: unknown) => e)) as SignInError | null
  expect(error).not.toBeNull()
  return { code: error!.code, message: error!.message }
}

describe('device sign-in', () => {
  it('shows the code and the URL, then returns the tokens once the person approves', async () => {
    await issuer.get().script({ pending: 2, interval: 5 })
    const { run, states, time } = await signIn()
    const record = await run
    const tokens = await issuer.get().tokens()
    expect(record.accessToken).toBe(tokens.access[0])
    expect(record.refreshToken).toBe(tokens.refresh[0])
    expect(record.tokenEndpoint).toBe(`${issuer.get().url}/token`)
    expect(record.revocationEndpoint).toBe(`${issuer.get().url}/revoke`)
    expect(record.expiresAtMs).toBe(time.now() + 3600_000)
    expect(states[0]).toEqual({ state: 'preparing' })
    const waiting = states[1] as Extract<DeviceFlowState, { state: 'waiting' }>
    expect(waiting.state).toBe('waiting')
    expect(waiting.verificationUri).toBe(`${issuer.get().url}/activate`)
    expect(waiting.verificationUriComplete).toBe(`${issuer.get().url}/activate?user_code=${waiting.userCode}`)
    // Two pending answers, then the tokens: three polls, five seconds apart.
    expect(time.slept).toEqual([5000, 5000, 5000])
    const polls = (await issuer.get().log()).filter((entry) => entry.path === '/token')
    expect(polls).toHaveLength(3)
  })

  it('waits five seconds longer after every slow_down', async () => {
    await issuer.get().script({ slowDown: 2, interval: 5 })
    const { run, time } = await signIn()
    await run
    expect(time.slept).toEqual([5000, 10000, 15000])
  })

  it('polls every 5 s when the issuer names no interval', async () => {
    await issuer.get().script({ pending: 1, interval: 0 })
    const { run, time } = await signIn()
    await run
    expect(time.slept).toEqual([5000, 5000])
  })

  it('stops with a clear message when the person declines', async () => {
    await issuer.get().script({ outcome: 'deny' })
    const { run } = await signIn()
    expect(await failure(run)).toEqual({ code: ErrorCode.FX_SIGNIN_DENIED, message: 'Sign-in was declined on the verification page. Run /login to try again.' })
  })

  it('stops when the issuer says the code expired', async () => {
    await issuer.get().script({ outcome: 'expire' })
    const { run } = await signIn()
    expect(await failure(run)).toEqual({ code: ErrorCode.FX_SIGNIN_EXPIRED, message: 'The sign-in code expired before it was approved. Run /login for a new one.' })
  })

  it('stops on its own once expires_in has passed, without another poll', async () => {
    await issuer.get().script({ pending: 1000, interval: 60, expiresIn: 120 })
    const { run } = await signIn()
    expect((await failure(run)).code).toBe(ErrorCode.FX_SIGNIN_EXPIRED)
    const polls = (await issuer.get().log()).filter((entry) => entry.path === '/token')
    expect(polls).toHaveLength(1) // at 60 s; at 120 s the code had expired
  })

  it('reports another refusal with the issuer\'s own words', async () => {
    await issuer.get().script({ outcome: 'error' })
    const { run } = await signIn()
    expect(await failure(run)).toEqual({ code: ErrorCode.FX_SIGNIN_REFUSED, message: 'The sign-in server refused the sign-in (invalid_client: unknown client).' })
  })

  it('ends as cancelled when its signal aborts while waiting', async () => {
    await issuer.get().script({ pending: 1000, interval: 5 })
    const controller = new AbortController()
    const time = fakeTime()
    const endpoints = await resolveEndpoints({ issuer: issuer.get().issuer }, fetch)
    const run = runDeviceFlow({
      endpoints,
      clientId: 'fxterm-test',
      scope: 'openid',
      fetch,
      now: time.now,
      sleep: async (ms, signal) => {
        if (time.slept.length === 2) controller.abort()
        await time.sleep(ms, signal)
      },
      signal: controller.signal,
      onState: () => {},
    })
    expect(await failure(run)).toEqual({ code: ErrorCode.FX_SIGNIN_CANCELLED, message: 'Sign-in cancelled.' })
  })

  it('says plainly when the issuer refuses this origin, and points to the fetch option', async () => {
    // A browser's fetch fails opaquely on a CORS refusal; a no-cors probe still gets through.
    const browserLike: typeof fetch = async (input, init) => {
      if (init?.mode === 'no-cors') return new Response(null, { status: 200 })
      throw new TypeError('Failed to fetch')
    }
    const endpoints = { deviceAuthorizationEndpoint: 'https://issuer.example/device', tokenEndpoint: 'https://issuer.example/token' }
    const run = runDeviceFlow({ endpoints, clientId: 'c', scope: 's', fetch: browserLike, now: () => 0, sleep: async () => {}, signal: new AbortController().signal, onState: () => {} })
    expect(await failure(run)).toEqual({
      code: ErrorCode.FX_SIGNIN_CORS_REFUSED,
      message: "The sign-in server https://issuer.example does not allow requests from this page (CORS). Pass createFxTerminal a `fetch` option that sends them through your app's own server.",
    })
  })

  it('says nothing answered when even the probe fails', async () => {
    const down: typeof fetch = async () => {
      throw new TypeError('Failed to fetch')
    }
    const run = resolveEndpoints({ issuer: 'https://down.example' }, down)
    expect(await failure(run)).toEqual({
      code: ErrorCode.FX_SIGNIN_UNREACHABLE,
      message: 'Nothing answered at the sign-in server https://down.example (Failed to fetch). Check the network and try /login again.',
    })
  })

  it('refuses a discovery document without a device endpoint', async () => {
    const plain: typeof fetch = async () => new Response(JSON.stringify({ token_endpoint: 'https://i.example/token' }), { status: 200 })
    expect(await failure(resolveEndpoints({ issuer: 'https://i.example' }, plain))).toEqual({
      code: ErrorCode.FX_SIGNIN_BAD_RESPONSE,
      message: 'The sign-in server (https://i.example/.well-known/openid-configuration) does not offer device sign-in (no device_authorization_endpoint).',
    })
  })

  it('uses explicit endpoints without any discovery request', async () => {
    const seen: string[] = []
    const recording: typeof fetch = async (input) => {
      seen.push(String(input))
      return new Response('{}')
    }
    const endpoints = await resolveEndpoints({ deviceAuthorizationEndpoint: 'https://i.example/d', tokenEndpoint: 'https://i.example/t' }, recording)
    expect(endpoints).toEqual({ deviceAuthorizationEndpoint: 'https://i.example/d', tokenEndpoint: 'https://i.example/t' })
    expect(seen).toEqual([])
  })

  it('refuses plain-http endpoints off this machine', async () => {
    const run = resolveEndpoints({ deviceAuthorizationEndpoint: 'http://i.example/d', tokenEndpoint: 'https://i.example/t' }, fetch)
    expect((await failure(run)).code).toBe(ErrorCode.FX_SIGNIN_NOT_CONFIGURED)
  })

  it('refuses a device answer without a code', async () => {
    const empty: typeof fetch = async () => new Response(JSON.stringify({ verification_uri: 'https://i.example/a' }), { status: 200 })
    const endpoints = { deviceAuthorizationEndpoint: 'https://i.example/d', tokenEndpoint: 'https://i.example/t' }
    const run = runDeviceFlow({ endpoints, clientId: 'c', scope: 's', fetch: empty, now: () => 0, sleep: async () => {}, signal: new AbortController().signal, onState: () => {} })
    expect((await failure(run)).code).toBe(ErrorCode.FX_SIGNIN_BAD_RESPONSE)
  })

  it('refuses a token answer without an access token, or with a token that is not a bearer', async () => {
    const endpoints = { deviceAuthorizationEndpoint: 'https://i.example/d', tokenEndpoint: 'https://i.example/t' }
    const issuerAnswering = (token: Record<string, unknown>): typeof fetch => async (input) =>
      String(input).endsWith('/d')
        ? new Response(JSON.stringify({ device_code: 'dc', user_code: 'AAAA-BBBB', verification_uri: 'https://i.example/a', interval: 1 }))
        : new Response(JSON.stringify(token))
    const run = (token: Record<string, unknown>) =>
      runDeviceFlow({ endpoints, clientId: 'c', scope: 's', fetch: issuerAnswering(token), now: () => 0, sleep: async () => {}, signal: new AbortController().signal, onState: () => {} })
    expect(await failure(run({ token_type: 'Bearer' }))).toEqual({ code: ErrorCode.FX_SIGNIN_BAD_RESPONSE, message: 'The sign-in server answered without an access token.' })
    expect(await failure(run({ access_token: 'fxat_x', token_type: 'mac' }))).toEqual({ code: ErrorCode.FX_SIGNIN_BAD_RESPONSE, message: 'The sign-in server issued a mac token; only bearer tokens can be used.' })
  })

  it('a verification URL that is not http(s) is never shown or opened', async () => {
    const endpoints = { deviceAuthorizationEndpoint: 'https://i.example/d', tokenEndpoint: 'https://i.example/t' }
    const hostile: typeof fetch = async () => new Response(JSON.stringify({ device_code: 'dc', user_code: 'AAAA-BBBB', verification_uri: 'javascript:alert(1)' }))
    const run = runDeviceFlow({ endpoints, clientId: 'c', scope: 's', fetch: hostile, now: () => 0, sleep: async () => {}, signal: new AbortController().signal, onState: () => {} })
    expect((await failure(run)).code).toBe(ErrorCode.FX_SIGNIN_BAD_RESPONSE)
  })
})
