/**
 * The hosted presets as a person meets them: each one's request goes to its own API root with
 * its own header, a key saved for one provider never reaches another, and the APIs that refuse
 * browser pages say so in one line unless the app's fetch carries the requests.
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { resolveProviders } from './provider-registry.ts'
import { collect, fakeFetch, sseResponse, sseText } from '../../../test/support/providers.ts'

const DONE = new TextEncoder().encode(sseText({ choices: [{ index: 0, delta: { content: 'ok' }, finish_reason: 'stop' }] }, '[DONE]'))
const ANTHROPIC_DONE = new TextEncoder().encode(
  'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1,"output_tokens":1}}}\n\n' +
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}\n\n' +
    'event: message_stop\ndata: {"type":"message_stop"}\n\n',
)
/** A distinct key per provider, so a key in the wrong place names where it came from. */
const KEYS: Record<string, string> = Object.fromEntries(
  ['openai', 'anthropic', 'openrouter', 'gemini', 'groq', 'mistral', 'deepseek', 'xai', 'router.example', 'mine'].map((name) => [name, `key-for-${name}`]),
)

function page(options: { proxied?: boolean; saved?: Record<string, string> } = {}) {
  const saved = options.saved ?? KEYS
  const { fetch, calls } = fakeFetch((url) => sseResponse([url.includes('/messages') ? ANTHROPIC_DONE : DONE]))
  const resolved = resolveProviders({
    env: {},
    fetch,
    keys: async (name) => saved[name],
    ...(options.proxied ? { proxied: true } : {}),
    demoTapeUrl: { version: 1, turns: [], fallback: 'demo' },
    baseUrl: 'https://router.example/v1',
    model: 'router-model',
    providers: [{ name: 'mine', baseUrl: 'http://localhost:9999/v1', models: { m: {} } }],
  })
  const send = async (name: string) => {
    const provider = resolved.providers.find((p) => p.name === name)!
    const events = await collect(provider, { model: '', messages: [{ role: 'user', content: 'hi' }], tools: [] })
    return { events, call: calls.at(-1) }
  }
  return { resolved, calls, send }
}

const headersOf = (init: RequestInit | undefined) => Object.fromEntries(new Headers(init?.headers).entries())

describe('hosted presets', () => {
  test('every preset is offered with its API root and a key of its own', () => {
    const summaries = page().resolved.summaries
    expect(summaries.filter((s) => s.key === 'key' || s.key === 'optional').map((s) => [s.name, s.baseUrl])).toEqual([
      ['openai', 'https://api.openai.com/v1'],
      ['anthropic', 'https://api.anthropic.com/v1'],
      ['openrouter', 'https://openrouter.ai/api/v1'],
      ['gemini', 'https://generativelanguage.googleapis.com/v1beta/openai'],
      ['groq', 'https://api.groq.com/openai/v1'],
      ['mistral', 'https://api.mistral.ai/v1'],
      ['deepseek', 'https://api.deepseek.com/v1'],
      ['xai', 'https://api.x.ai/v1'],
      ['router.example', 'https://router.example/v1'],
      ['mine', 'http://localhost:9999/v1'],
    ])
    // A person's own servers take a key only once one is saved (asked for when they answer 401).
    expect(summaries.filter((s) => s.key === 'optional').map((s) => s.name)).toEqual(['router.example', 'mine'])
  })

  for (const [name, url, model] of [
    ['openai', 'https://api.openai.com/v1/chat/completions', 'gpt-5-mini'],
    ['openrouter', 'https://openrouter.ai/api/v1/chat/completions', 'anthropic/claude-sonnet-4.5'],
    ['gemini', 'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions', 'gemini-2.5-flash'],
    ['groq', 'https://api.groq.com/openai/v1/chat/completions', 'openai/gpt-oss-120b'],
    ['mistral', 'https://api.mistral.ai/v1/chat/completions', 'mistral-medium-latest'],
    ['xai', 'https://api.x.ai/v1/chat/completions', 'grok-code-fast-1'],
  ] as const) {
    test(`${name}: POST ${url} with its own key as a bearer and nothing else`, async () => {
      const { events, call } = await page().send(name)
      expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
      expect([call?.url, headersOf(call?.init)]).toEqual([url, { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer key-for-${name}` }])
      expect(JSON.parse(String(call?.init?.body)).model).toEqual(model)
    })
  }

  test('anthropic: POST /v1/messages with x-api-key, the version and the browser opt-in', async () => {
    const { events, call } = await page().send('anthropic')
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
    expect([call?.url, headersOf(call?.init)]).toEqual([
      'https://api.anthropic.com/v1/messages',
      {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'x-api-key': 'key-for-anthropic',
        'anthropic-version': '2023-06-01',
        'anthropic-dangerous-direct-browser-access': 'true',
      },
    ])
  })

  test('deepseek refuses browser pages: one line pointing to the fetch option, no request', async () => {
    const p = page()
    expect((await p.send('deepseek')).events).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_BROWSER_REFUSED,
        message: 'deepseek does not accept requests from a browser page (its API sends no CORS headers); the app embedding fxterm can pass a fetch option that sends them through its own server.',
        retryable: false,
      },
    ])
    expect(p.calls).toEqual([])
  })

  test('through the app’s fetch (a proxy) deepseek is sent as any preset', async () => {
    const { call } = await page({ proxied: true }).send('deepseek')
    expect([call?.url, headersOf(call?.init).authorization]).toEqual(['https://api.deepseek.com/v1/chat/completions', 'Bearer key-for-deepseek'])
  })

  test('a preset without a saved key sends nothing and says which /key to run', async () => {
    const p = page({ saved: {} })
    expect((await p.send('openai')).events).toEqual([{ type: 'error', code: ErrorCode.FX_MODEL_UNAUTHORIZED, message: 'openai needs an API key: /key openai saves one', retryable: false }])
    expect(p.calls).toEqual([])
  })
})

describe('key routing', () => {
  test('each request carries exactly its own provider’s key, to its own host', async () => {
    const p = page()
    const names = ['openai', 'anthropic', 'openrouter', 'groq', 'mistral', 'xai', 'router.example', 'mine']
    for (const name of names) await p.send(name)
    const sent = p.calls.map((call) => {
      const headers = headersOf(call.init)
      const key = headers.authorization?.replace('Bearer ', '') ?? headers['x-api-key'] ?? null
      return [new URL(call.url).host, key]
    })
    expect(sent).toEqual([
      ['api.openai.com', 'key-for-openai'],
      ['api.anthropic.com', 'key-for-anthropic'],
      ['openrouter.ai', 'key-for-openrouter'],
      ['api.groq.com', 'key-for-groq'],
      ['api.mistral.ai', 'key-for-mistral'],
      ['api.x.ai', 'key-for-xai'],
      ['router.example', 'key-for-router.example'],
      ['localhost:9999', 'key-for-mine'],
    ])
  })

  test('a server named by ?baseUrl= gets its own saved key, never AI Gateway’s', async () => {
    const p = page({ saved: { 'ai-gateway': 'gateway-key', 'router.example': 'router-key' } })
    const { call } = await p.send('router.example')
    expect(headersOf(call?.init).authorization).toEqual('Bearer router-key')
  })
})
