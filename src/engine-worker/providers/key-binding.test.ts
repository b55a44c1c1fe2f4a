import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createKeyRing } from '../auth/key-store.ts'
import { memoryOAuthSessionStore } from '../../page/stores/memory-stores.ts'
import { resolveProviders } from './provider-registry.ts'
import { collect, fakeFetch, sseResponse, sseText } from '../../../test/support/providers.ts'

const TAPE = { version: 1 as const, turns: [], fallback: 'demo' }
const OPENAI_KEY = 'sk-saved-openai-key-0123456789'
const STOP = () => sseResponse([new TextEncoder().encode(sseText({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, '[DONE]'))])

/** A page opened with `baseUrl` after an OpenAI key was saved: every request it made, with the headers that carry keys. */
async function openedWith(baseUrl: string, respond?: (url: string) => Response) {
  const ring = createKeyRing(memoryOAuthSessionStore())
  await ring.save('openai', OPENAI_KEY, 'https://api.openai.com/v1')
  const { fetch, calls } = fakeFetch((url) => respond?.(url) ?? (url.endsWith('/models') ? Response.json({ data: [{ id: 'm' }] }) : STOP()))
  const resolved = resolveProviders({ demoTapeUrl: TAPE, env: {}, baseUrl, model: 'gpt-x', fetch, keys: (name, url) => ring.load(name, url) })
  const active = resolved.providers.find((provider) => provider.name === resolved.active)!
  const events = await collect(active, { model: 'gpt-x', messages: [{ role: 'user', content: 'hi' }], tools: [] })
  await active.listModels?.(new AbortController().signal).catch(() => [])
  const sent = calls.map((call) => {
    const headers = (call.init?.headers ?? {}) as Record<string, string>
    return { url: call.url, key: headers['Authorization'] ?? headers['x-api-key'] }
  })
  const summary = resolved.summaries.find((entry) => entry.name === resolved.active)
  return { active: resolved.active, summary, sent, events }
}

describe('a saved key goes only to the origin it was saved for', () => {
  const lookAlikes = [
    ['a host named like the preset', 'https://openai/v1', 'openai-url'],
    ['a host that starts with the real one', 'https://api.openai.com.evil.test/v1', 'api.openai.com.evil.test'],
    ['the real host on another port', 'https://api.openai.com:8443/v1', 'api.openai.com:8443'],
  ] as const
  for (const [what, baseUrl, name] of lookAlikes) {
    test(`${what} (${baseUrl}) is a provider of its own, with no key, and gets none`, async () => {
      const { active, summary, sent } = await openedWith(baseUrl)
      expect(active).toEqual(name)
      expect(sent.length).toBeGreaterThan(0)
      expect(sent.filter((request) => request.key !== undefined)).toEqual([])
      // No saved key bears its name, so the engine shows its key state as none.
      expect(summary?.name).not.toEqual('openai')
    })
  }

  for (const [what, baseUrl] of [
    ['plain http to the real host', 'http://api.openai.com/v1'],
    ['the real host as the user part of another', 'https://api.openai.com@other.test/v1'],
  ] as const) {
    test(`${what} (${baseUrl}) is refused before anything is sent`, async () => {
      const { active, sent } = await openedWith(baseUrl)
      expect({ active, sent }).toEqual({ active: 'demo', sent: [] })
    })
  }

  test('a base URL at exactly the preset’s origin is the preset, and gets its key', async () => {
    const { active, sent } = await openedWith('https://api.openai.com/v1')
    expect(active).toEqual('openai')
    expect(sent.map((request) => request.key)).toEqual([`Bearer ${OPENAI_KEY}`, `Bearer ${OPENAI_KEY}`])
    expect(sent.every((request) => request.url.startsWith('https://api.openai.com/v1/'))).toBe(true)
  })

  test('a keyed request answered with a redirect is not followed and says why', async () => {
    const redirect = () => new Response(null, { status: 307, headers: { location: 'https://elsewhere.test/v1/chat/completions' } })
    const { sent, events } = await openedWith('https://api.openai.com/v1', redirect)
    expect(sent.map((request) => request.url)).toEqual(['https://api.openai.com/v1/chat/completions', 'https://api.openai.com/v1/models'])
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: ErrorCode.FX_MODEL_REDIRECT_REFUSED,
      message: "openai answered https://api.openai.com/v1/chat/completions with a redirect; fxterm does not follow it, so your key goes only to https://api.openai.com. Set the provider's base URL to where the server really answers.",
      retryable: false,
    })
  })
})
