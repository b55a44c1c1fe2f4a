import { describe, expect, test } from 'vitest'
import { diagnoseHttpFailure, diagnoseNetworkFailure, type HttpFailure } from './diagnose-failure.ts'
import { maskSecrets } from './mask-secrets.ts'
import { fakeFetch } from './test-helpers.ts'

/** A fetch whose no-cors probe answers (server up) or rejects (nothing listening). */
function probeFetch(serverUp: boolean) {
  return fakeFetch(() => {
    if (serverUp) return new Response(null, { status: 200 })
    throw new TypeError('Failed to fetch')
  })
}

describe('diagnosing a fetch that failed without a response', () => {
  test('a server that answers the no-cors probe refused the origin: Ollama gets OLLAMA_ORIGINS', async () => {
    const { fetch, calls } = probeFetch(true)
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://127.0.0.1:11434/v1', origin: 'http://localhost:5173', fetch })).toEqual({
      code: 'FX_MODEL_CORS_REFUSED',
      message: '127.0.0.1:11434 is running but refused requests from http://localhost:5173 (CORS); restart Ollama with OLLAMA_ORIGINS=http://localhost:5173 ollama serve',
    })
    expect(calls.map((call) => ({ url: call.url, mode: call.init?.mode }))).toEqual([{ url: 'http://127.0.0.1:11434/v1/models', mode: 'no-cors' }])
  })

  test('LM Studio on port 1234 is told to enable CORS in its server settings', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:1234/v1', origin: 'http://localhost:5173', fetch: probeFetch(true).fetch })).toEqual({
      code: 'FX_MODEL_CORS_REFUSED',
      message: "localhost:1234 is running but refused requests from http://localhost:5173 (CORS); enable CORS in LM Studio's server settings",
    })
  })

  test('any other server is told to allow the exact origin', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'https://llm.corp.example/v1', origin: 'https://fxterm.example', fetch: probeFetch(true).fetch })).toEqual({
      code: 'FX_MODEL_CORS_REFUSED',
      message: "llm.corp.example is running but refused requests from https://fxterm.example (CORS); allow the origin https://fxterm.example in the server's CORS settings",
    })
  })

  test('nothing answering the probe means the server is unreachable', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:8080/v1', origin: 'http://localhost:5173', fetch: probeFetch(false).fetch })).toEqual({
      code: 'FX_MODEL_UNREACHABLE',
      message: 'nothing answered at http://localhost:8080/v1; is the server running?',
    })
  })

  test('an https page calling a plain-http host is mixed content, without probing', async () => {
    const { fetch, calls } = probeFetch(true)
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://192.168.1.20:11434/v1', origin: 'https://fxterm.example', fetch })).toEqual({
      code: 'FX_MODEL_MIXED_CONTENT',
      message: 'this page is served over https, so the browser blocks requests to http://192.168.1.20:11434/v1 (mixed content); serve the model over https, or open fxterm over http://localhost',
    })
    expect(calls).toEqual([])
  })

  test('an https page whose probe of http://localhost fails is reported as possible mixed content', async () => {
    expect(await diagnoseNetworkFailure({ baseUrl: 'http://localhost:11434/v1', origin: 'https://fxterm.example', fetch: probeFetch(false).fetch })).toEqual({
      code: 'FX_MODEL_MIXED_CONTENT',
      message:
        'nothing answered at http://localhost:11434/v1 from this https page: the browser may block plain http here (mixed content) or the server is not running; start it and try Chrome or Firefox, or open fxterm over http://localhost',
    })
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
  }

  test('a 5xx quotes up to 200 characters of the server message, masked', async () => {
    const bodyText = JSON.stringify({ error: { message: `upstream said Bearer sk-abcdef123456 is bad ${'z'.repeat(300)}` } })
    const diagnosis = await diagnoseHttpFailure({ ...base, status: 502, bodyText })
    const quoted = `upstream said Bearer *** is bad ${'z'.repeat(300)}`.slice(0, 199)
    expect(diagnosis).toEqual({
      code: 'FX_MODEL_SERVER_ERROR',
      message: `models.example had a server error (HTTP 502: ${quoted}…); try again in a moment`,
    })
  })

  test('an HTML error page from a proxy is reduced to its text', async () => {
    const bodyText = '<html><head><title>503 Service Unavailable</title></head><body><h1>Service Unavailable</h1></body></html>'
    expect(await diagnoseHttpFailure({ ...base, status: 503, bodyText })).toEqual({
      code: 'FX_MODEL_SERVER_ERROR',
      message: 'models.example had a server error (HTTP 503: 503 Service Unavailable Service Unavailable); try again in a moment',
    })
  })

  test('a 429 passes on how long to wait', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 429, retryAfter: '20' })).toEqual({
      code: 'FX_MODEL_RATE_LIMITED',
      message: 'models.example is rate limiting requests (HTTP 429); wait 20 s and try again',
    })
  })

  test('a 403 without a key says a key is needed', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 403 })).toEqual({
      code: 'FX_MODEL_UNAUTHORIZED',
      message: 'models.example needs a key (HTTP 403); set AI_GATEWAY_API_KEY or FX_API_KEY to a valid key and try again',
    })
  })

  test('a 404 from a server that lists no models points at the model id and the base URL', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 404 })).toEqual({
      code: 'FX_MODEL_NOT_FOUND',
      message: 'models.example has no model "big-model" (HTTP 404); check the model id, and that https://models.example/v1 is the API root (it usually ends in /v1)',
    })
  })

  test('another 4xx is a rejected request with the server message', async () => {
    expect(await diagnoseHttpFailure({ ...base, status: 400, bodyText: '{"message":"tools are not supported"}' })).toEqual({
      code: 'FX_MODEL_REQUEST_REJECTED',
      message: 'models.example rejected the request (HTTP 400: tools are not supported); the model "big-model" may not support tool calls, so try another model',
    })
  })
})

describe('masking secrets', () => {
  test('the key, bearer tokens and sk-/vck_ style keys are all masked', () => {
    expect(maskSecrets('key my-own-key-1 auth: bearer abc123 other sk-proj_ABCdef12 gw vck_0123456789 task-12345678', 'my-own-key-1')).toEqual(
      'key *** auth: Bearer *** other *** gw *** task-12345678',
    )
  })
})
