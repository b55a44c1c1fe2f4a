import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { diagnoseHttpFailure, diagnoseNetworkFailure, type HttpFailure } from './diagnose-failure.ts'
import { maskSecrets } from './mask-secrets.ts'
import { fakeFetch } from '../../../test/support/providers.ts'

/**
 * A fetch for the probes: the `no-cors` GET answers when something listens, the plain CORS GET
 * answers when the server also accepts this page's origin.
 */
function probeFetch(server: { listening: boolean; allowsOrigin?: boolean }) {
  return fakeFetch((_url, init) => {
    const answers = init?.mode === 'no-cors' ? server.listening : server.listening && server.allowsOrigin === true
    if (answers) return new Response(null, { status: 200 })
    throw new TypeError('Failed to fetch')
  })
}

/** A Permissions API whose Local Network Access permission has this state (other names unknown). */
function permissionsWith(state: string, name = 'local-network-access') {
  const asked: string[] = []
  const permissions = {
    async query(descriptor: { name: string }) {
      asked.push(descriptor.name)
      if (descriptor.name !== name) throw new TypeError(`unknown permission ${descriptor.name}`)
      return { state }
    },
  }
  return { permissions, asked }
}

const PAGE = 'https://fxterm.example'

describe('diagnosing a fetch that failed without a response', () => {
  test('a server that answers the no-cors probe but not a CORS request refused the origin: Ollama gets OLLAMA_ORIGINS', async () => {
    const { fetch, calls } = probeFetch({ listening: true })
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://127.0.0.1:11434/v1', origin: 'http://localhost:5173', fetch })).toEqual({
      code: ErrorCode.FX_MODEL_CORS_REFUSED,
      message: '127.0.0.1:11434 is running but refused requests from http://localhost:5173 (CORS); restart Ollama with OLLAMA_ORIGINS=http://localhost:5173 ollama serve',
      retryable: false,
    })
    expect(calls.map((call) => ({ url: call.url, mode: call.init?.mode }))).toEqual([
      { url: 'http://127.0.0.1:11434/v1/models', mode: 'no-cors' },
      { url: 'http://127.0.0.1:11434/v1/models', mode: 'cors' },
    ])
  })

  test('LM Studio on port 1234 is told to enable CORS in its server settings', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:1234/v1', origin: 'http://localhost:5173', fetch: probeFetch({ listening: true }).fetch })).toEqual({
      code: ErrorCode.FX_MODEL_CORS_REFUSED,
      message: "localhost:1234 is running but refused requests from http://localhost:5173 (CORS); enable CORS in LM Studio's server settings (or start it with lms server start --cors)",
      retryable: false,
    })
  })

  test('the llama.cpp preset is told that llama-server allows every origin, so something else refused it', async () => {
    const diagnosis = await diagnoseNetworkFailure({ baseUrl: 'http://localhost:8080/v1', origin: PAGE, server: 'llamacpp', fetch: probeFetch({ listening: true }).fetch, permissions: null })
    expect(diagnosis).toEqual({
      code: ErrorCode.FX_MODEL_CORS_REFUSED,
      message:
        'localhost:8080 is running but refused requests from https://fxterm.example (CORS); llama-server allows every origin by default, so check that it is llama-server answering at localhost:8080 and not a proxy that drops its CORS headers',
      retryable: false,
    })
  })

  test('llama-server with a key answers this origin but cannot take the Authorization header from a page', async () => {
    const fetch = probeFetch({ listening: true, allowsOrigin: true }).fetch
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:8080/v1', origin: PAGE, server: 'llamacpp', sentKey: true, fetch })).toEqual({
      code: ErrorCode.FX_MODEL_CORS_REFUSED,
      message:
        'localhost:8080 refused the request that carries the key (CORS); llama-server allows request headers "*", which browsers never apply to Authorization, so run it without --api-key (on localhost) or put a proxy in front that allows the Authorization header',
      retryable: false,
    })
  })

  test('any other server is told to allow the exact origin', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'https://llm.corp.example/v1', origin: PAGE, fetch: probeFetch({ listening: true }).fetch })).toEqual({
      code: ErrorCode.FX_MODEL_CORS_REFUSED,
      message: "llm.corp.example is running but refused requests from https://fxterm.example (CORS); allow the origin https://fxterm.example in the server's CORS settings",
      retryable: false,
    })
  })

  test('a server that is up and accepts the origin had a network failure, which is worth retrying', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'https://ai-gateway.vercel.sh/v1', origin: PAGE, sentKey: true, fetch: probeFetch({ listening: true, allowsOrigin: true }).fetch })).toEqual({
      code: ErrorCode.FX_MODEL_NETWORK_ERROR,
      message:
        'the connection to ai-gateway.vercel.sh failed before an answer arrived although the server is up; try again, and if it keeps failing allow the Authorization and Content-Type headers in its CORS settings',
      retryable: true,
    })
  })

  test('a reset connection to a server whose preflight passes is a dropped connection, without CORS advice', async () => {
    // The probe with the request's own headers gets through its preflight: CORS was not the cause.
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 401 }))
    const headers = { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: 'Bearer sk-x' }
    expect(await diagnoseNetworkFailure({ baseUrl: 'https://llm.corp.example/v1', origin: PAGE, sentKey: true, headers, fetch })).toEqual({
      code: ErrorCode.FX_MODEL_NETWORK_ERROR,
      message: "the connection to llm.corp.example was dropped before the answer was complete (the server is up and accepts this page's requests); try again",
      retryable: true,
    })
    expect(calls.map((call) => [call.url, call.init?.mode, call.init?.headers])).toEqual([
      ['https://llm.corp.example/v1/models', 'no-cors', undefined],
      ['https://llm.corp.example/v1/models', 'cors', undefined],
      ['https://llm.corp.example/v1/models', 'cors', headers],
    ])
    // When that preflight is refused, the CORS advice stays.
    const refused = fakeFetch((_url, init) => {
      if (init?.headers !== undefined) throw new TypeError('Failed to fetch')
      return new Response(null, { status: 200 })
    })
    expect((await diagnoseNetworkFailure({ baseUrl: 'https://llm.corp.example/v1', origin: PAGE, sentKey: true, headers, fetch: refused.fetch })).message).toMatch(/allow the Authorization and Content-Type headers in its CORS settings$/)
  })

  test('a local server that does not answer is not running, with the way to start it, and is not retried', async () => {
    const fetch = probeFetch({ listening: false }).fetch
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:8080/v1', origin: 'http://localhost:5173', fetch })).toEqual({
      code: ErrorCode.FX_MODEL_UNREACHABLE,
      message: 'nothing answered at http://localhost:8080/v1; check that the server is running at that address and try again',
      retryable: false,
    })
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:11434/v1', origin: 'http://localhost:5173', fetch })).toEqual({
      code: ErrorCode.FX_MODEL_UNREACHABLE,
      message: 'nothing answered at http://localhost:11434/v1; start it with OLLAMA_ORIGINS=http://localhost:5173 ollama serve and try again',
      retryable: false,
    })
  })

  test('a remote server that does not answer may be a passing network failure, so it is retryable', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'https://router.example/api/v1', origin: PAGE, fetch: probeFetch({ listening: false }).fetch })).toEqual({
      code: ErrorCode.FX_MODEL_UNREACHABLE,
      message: 'nothing answered at https://router.example/api/v1; check the network connection and the address, then try again',
      retryable: true,
    })
  })

  test('a public page refused Local Network Access is told so instead of "not running"', async () => {
    const { permissions, asked } = permissionsWith('denied')
    const fetch = probeFetch({ listening: false }).fetch
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:11434/v1', origin: PAGE, fetch, permissions })).toEqual({
      code: ErrorCode.FX_MODEL_LOCAL_NETWORK_DENIED,
      message:
        'the browser blocked this page from reaching localhost:11434 because local network access was denied; allow it for this site (the icon at the left of the address bar, then Local network access) and reload',
      retryable: false,
    })
    expect(asked).toEqual(['loopback-network', 'local-network-access'])
  })

  test('the newer permission names are asked first, and a LAN address asks for local-network', async () => {
    const { permissions, asked } = permissionsWith('denied', 'local-network')
    const diagnosis = await diagnoseNetworkFailure({ baseUrl: 'https://192.168.1.20:8443/v1', origin: PAGE, fetch: probeFetch({ listening: false }).fetch, permissions })
    expect(diagnosis.code).toEqual(ErrorCode.FX_MODEL_LOCAL_NETWORK_DENIED)
    expect(asked).toEqual(['local-network'])
  })

  test('a granted permission, or a page that is itself on localhost, leaves the usual diagnosis', async () => {
    const fetch = probeFetch({ listening: false }).fetch
    const granted = permissionsWith('granted').permissions
    expect((await diagnoseNetworkFailure({ baseUrl: 'http://localhost:1234/v1', origin: 'http://localhost:5173', fetch, permissions: granted })).code).toEqual(ErrorCode.FX_MODEL_UNREACHABLE)
    const denied = permissionsWith('denied')
    expect((await diagnoseNetworkFailure({ baseUrl: 'http://localhost:1234/v1', origin: 'http://localhost:5173', fetch, permissions: denied.permissions })).code).toEqual(
      ErrorCode.FX_MODEL_UNREACHABLE,
    )
    expect(denied.asked).toEqual([])
  })

  test('an https page calling a plain-http host is mixed content, without probing', async () => {
    const { fetch, calls } = probeFetch({ listening: true })
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://192.168.1.20:11434/v1', origin: PAGE, fetch })).toEqual({
      code: ErrorCode.FX_MODEL_MIXED_CONTENT,
      message: 'this page is served over https, so the browser blocks requests to http://192.168.1.20:11434/v1 (mixed content); serve the model over https, or open fxterm over http://localhost',
      retryable: false,
    })
    expect(calls).toEqual([])
  })

  test('an https page whose probe of an unknown http://localhost server fails is reported as possible mixed content', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:9999/v1', origin: PAGE, fetch: probeFetch({ listening: false }).fetch, permissions: null })).toEqual({
      code: ErrorCode.FX_MODEL_MIXED_CONTENT,
      message:
        'nothing answered at http://localhost:9999/v1 from this https page: the browser may block plain http here (mixed content) or the server is not running; start it and try Chrome or Firefox, or open fxterm over http://localhost',
      retryable: false,
    })
  })

  test('an https page that finds no Ollama gets the command that starts it for this origin first', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:11434/v1', origin: PAGE, fetch: probeFetch({ listening: false }).fetch, permissions: null })).toEqual({
      code: ErrorCode.FX_MODEL_UNREACHABLE,
      message: `nothing answered at http://localhost:11434/v1; start it with OLLAMA_ORIGINS=${PAGE} ollama serve and try again (Safari blocks http://localhost from an https page: use Chrome or Firefox)`,
      retryable: false,
    })
  })

  test('a base URL that does not parse is said to be invalid, without any request', async () => {
    const { fetch, calls } = probeFetch({ listening: true })
    expect(await diagnoseNetworkFailure({ baseUrl: 'localhost 11434', origin: PAGE, fetch })).toEqual({
      code: ErrorCode.FX_MODEL_INVALID_URL,
      message: '"localhost 11434" is not a valid URL; set FX_BASE_URL to the server\'s API root',
      retryable: false,
    })
    expect(calls).toEqual([])
  })
})

describe('diagnosing an error status', () => {
  const base: HttpFailure = {
    status: 500,
    bodyText: '',
    baseUrl: 'https://models.example/v1',
    model: 'big-model',
    label: 'models.example',
    fetch: fakeFetch(() => new Response('', { status: 404 })).fetch,
    now: Date.parse('2030-01-01T00:00:00Z'),
  }

  test('a 5xx quotes up to 200 characters of the server message, masked, and is retryable', async () => {
    const bodyText = JSON.stringify({ error: { message: `upstream said Bearer sk-abcdef123456 is bad ${'z'.repeat(300)}` } })
    const diagnosis = await diagnoseHttpFailure({ ...base, status: 502, bodyText })
    const quoted = `upstream said Bearer *** is bad ${'z'.repeat(300)}`.slice(0, 199)
    expect(diagnosis).toEqual({
      code: ErrorCode.FX_MODEL_SERVER_ERROR,
      message: `models.example had a server error (HTTP 502: ${quoted}…); try again in a moment`,
      retryable: true,
      status: 502,
    })
  })

  test('an HTML error page from a proxy is reduced to its text', async () => {
    const bodyText = '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>'
    expect(await diagnoseHttpFailure({ ...base, status: 503, bodyText })).toEqual({
      code: ErrorCode.FX_MODEL_SERVER_ERROR,
      message: 'models.example had a server error (HTTP 503: 503 Service Unavailable Service Unavailable); try again in a moment',
      retryable: true,
      status: 503,
    })
  })

  test('a 429 passes on how long to wait, from Retry-After in seconds', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 429, headers: new Headers({ 'retry-after': '20' }) })).toEqual({
      code: ErrorCode.FX_MODEL_RATE_LIMITED,
      message: 'models.example is rate limiting requests (HTTP 429); wait 20 s and try again',
      retryable: true,
      retryAfterMs: 20_000,
      status: 429,
    })
  })

  test('a Retry-After date is measured against the injected clock and capped at 30 s', async () => {
    const in4s = new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:04 GMT' })
    expect((await diagnoseHttpFailure({ ...base, status: 429, headers: in4s })).retryAfterMs).toEqual(4000)
    const inAnHour = new Headers({ 'retry-after': 'Tue, 01 Jan 2030 01:00:00 GMT' })
    expect((await diagnoseHttpFailure({ ...base, status: 503, headers: inAnHour })).retryAfterMs).toEqual(30_000)
  })

  test('408 and 409 are retryable with their own codes', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 408 })).toEqual({
      code: ErrorCode.FX_MODEL_TIMEOUT,
      message: 'models.example timed out waiting for the request (HTTP 408); try again',
      retryable: true,
      status: 408,
    })
    expect(await diagnoseHttpFailure({ ...base, status: 409, bodyText: '{"error":{"message":"another request holds the lock"}}' })).toEqual({
      code: ErrorCode.FX_MODEL_CONFLICT,
      message: 'models.example was busy with a conflicting request (HTTP 409: another request holds the lock); try again in a moment',
      retryable: true,
      status: 409,
    })
  })

  test('a 401 with a key says it was rejected, to run /login or set a key, and is not retried', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 401, apiKey: 'sk-live-0123456789', bodyText: 'bad key sk-live-0123456789' })).toEqual({
      code: ErrorCode.FX_MODEL_UNAUTHORIZED,
      message: 'models.example rejected the key (HTTP 401: bad key ***); run /login or set a key, then try again',
      retryable: false,
      status: 401,
    })
  })

  test('a 403 without a key says a key is needed', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 403 })).toEqual({
      code: ErrorCode.FX_MODEL_UNAUTHORIZED,
      message: 'models.example needs a key (HTTP 403); run /login or set a key, then try again',
      retryable: false,
      status: 403,
    })
  })

  test('a 404 from a server that lists no models points at the model id and the base URL', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 404 })).toEqual({
      code: ErrorCode.FX_MODEL_NOT_FOUND,
      message: 'models.example has no model "big-model" (HTTP 404); check the model id, and that https://models.example/v1 is the API root (it usually ends in /v1)',
      retryable: false,
      status: 404,
    })
  })

  test('a 404 lists what the server has, asking /models with the same key', async () => {
    const { fetch, calls } = fakeFetch(() => Response.json({ data: [{ id: 'llama3.2' }, { id: 'qwen3' }] }))
    expect(await diagnoseHttpFailure({ ...base, status: 404, fetch, apiKey: 'sk-live-0123456789' })).toEqual({
      code: ErrorCode.FX_MODEL_NOT_FOUND,
      message: 'models.example has no model "big-model" (HTTP 404); it offers llama3.2, qwen3: pick one with /model <id>',
      retryable: false,
      status: 404,
    })
    expect(calls.map((call) => ({ url: call.url, headers: call.init?.headers }))).toEqual([
      { url: 'https://models.example/v1/models', headers: { Accept: 'application/json', Authorization: 'Bearer sk-live-0123456789' } },
    ])
  })

  test('another 4xx is a rejected request with the server message', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 400, bodyText: '{"message":"tools are not supported"}' })).toEqual({
      code: ErrorCode.FX_MODEL_REQUEST_REJECTED,
      message: 'models.example rejected the request (HTTP 400: tools are not supported); the model "big-model" may not support tool calls, so try another model',
      retryable: false,
      status: 400,
    })
  })

  test('x-should-retry overrides the status rule both ways', async () => {
    expect((await diagnoseHttpFailure({ ...base, status: 400, headers: new Headers({ 'x-should-retry': 'true' }) })).retryable).toEqual(true)
    expect((await diagnoseHttpFailure({ ...base, status: 503, headers: new Headers({ 'x-should-retry': 'false' }) })).retryable).toEqual(false)
  })
})

describe('masking secrets', () => {
  test('the key, bearer tokens and sk-/vck_ style keys are all masked', () => {
    expect(maskSecrets('key my-own-key-1 auth: bearer abc123 other sk-proj_ABCdef12 gw vck_0123456789 task-12345678', 'my-own-key-1')).toEqual(
      'key *** auth: Bearer *** other *** gw *** task-12345678',
    )
  })
})
