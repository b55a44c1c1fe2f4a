/**
 * A local server chosen with no model named (`/provider ollama` then a prompt) is asked which
 * models it has, and the first is used; when nothing answers, the one error line says how to
 * start it with this page's origin allowed. Never "no model is chosen".
 */
import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createPresetProvider, PROVIDER_PRESETS } from './provider-presets.ts'
import { collect, fakeFetch, sseResponse, sseText } from '../../../test/support/providers.ts'

const ollama = PROVIDER_PRESETS.find((preset) => preset.name === 'ollama')!
const DONE = new TextEncoder().encode(sseText({ choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }] }, '[DONE]'))
const request = { model: '', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] }

describe('a local server without a chosen model', () => {
  test('its first listed model is used for the request', async () => {
    const { fetch, calls } = fakeFetch((url) => (url.endsWith('/models') ? Response.json({ data: [{ id: 'qwen3:8b' }, { id: 'llama3.2' }] }) : sseResponse([DONE])))
    const events = await collect(createPresetProvider(ollama, { fetch, origin: 'https://fxterm.example' }), request)
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' })
    expect(calls.map((call) => [call.init?.method ?? 'GET', call.url])).toEqual([
      ['GET', 'http://localhost:11434/v1/models'],
      ['POST', 'http://localhost:11434/v1/chat/completions'],
    ])
    expect(JSON.parse(String(calls[1]?.init?.body)).model).toEqual('qwen3:8b')
  })

  test('a server with no models says how to get one', async () => {
    const { fetch } = fakeFetch(() => Response.json({ data: [] }))
    expect(await collect(createPresetProvider(ollama, { fetch }), request)).toEqual([
      { type: 'error', code: ErrorCode.FX_MODEL_NOT_CHOSEN, message: 'ollama has no models yet; pull one with ollama pull <model>, then try again', retryable: false },
    ])
  })

  test('nothing listening: one line with the command that starts it for this origin', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')))
    expect(await collect(createPresetProvider(ollama, { fetch, origin: 'https://fxterm.example', permissions: null }), request)).toEqual([
      {
        type: 'error',
        code: ErrorCode.FX_MODEL_UNREACHABLE,
        message: 'nothing answered at http://localhost:11434/v1; start it with OLLAMA_ORIGINS=https://fxterm.example ollama serve and try again (Safari blocks http://localhost from an https page: use Chrome or Firefox)',
        retryable: false,
      },
    ])
  })
})
