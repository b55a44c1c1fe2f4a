import { describe, expect, test } from 'vitest'
import { type ResolveProviderOptions, resolveProvider } from './resolve-provider.ts'
import { collect, fakeFetch, sseResponse, sseText } from '../../../test/support/providers.ts'

/** What a person would notice about the choice: label, model, notice, and where requests go. */
async function choice(options: ResolveProviderOptions) {
  const done = new TextEncoder().encode(sseText({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, '[DONE]'))
  const { fetch, calls } = fakeFetch(() => sseResponse([done]))
  const { provider, notice } = resolveProvider({ ...options, fetch, demoTapeUrl: { version: 1, turns: [], fallback: 'demo' } })
  await collect(provider, { model: '', messages: [{ role: 'user', content: 'hi' }], tools: [] })
  const request = calls[0]
  return {
    label: provider.label,
    defaultModel: provider.defaultModel,
    notice,
    requestedUrl: request?.url,
    authorization: (request?.init?.headers as Record<string, string> | undefined)?.['Authorization'],
  }
}

describe('choosing a provider', () => {
  test('nothing configured gives the offline demo without a notice and without network', async () => {
    expect(await choice({ env: {} })).toEqual({ label: 'demo', defaultModel: 'demo', notice: undefined, requestedUrl: undefined, authorization: undefined })
  })

  test('AI_GATEWAY_API_KEY selects AI Gateway with its default model', async () => {
    expect(await choice({ env: { AI_GATEWAY_API_KEY: 'gw-key-1234' } })).toEqual({
      label: 'ai-gateway',
      defaultModel: 'anthropic/claude-sonnet-4.5',
      notice: undefined,
      requestedUrl: 'https://ai-gateway.vercel.sh/v1/chat/completions',
      authorization: 'Bearer gw-key-1234',
    })
  })

  test('an explicit key without a base URL also means AI Gateway, and FX_MODEL picks the model', async () => {
    expect(await choice({ apiKey: 'explicit-key', env: { FX_MODEL: 'openai/gpt-5' } })).toEqual({
      label: 'ai-gateway',
      defaultModel: 'openai/gpt-5',
      notice: undefined,
      requestedUrl: 'https://ai-gateway.vercel.sh/v1/chat/completions',
      authorization: 'Bearer explicit-key',
    })
  })

  test('a localhost FX_BASE_URL is used over plain http, labelled by host, without the gateway key', async () => {
    expect(
      await choice({ env: { FX_BASE_URL: 'http://localhost:11434/v1/', FX_MODEL: 'llama3.2', AI_GATEWAY_API_KEY: 'gw-key-1234' } }),
    ).toEqual({
      label: 'localhost:11434',
      defaultModel: 'llama3.2',
      notice: undefined,
      requestedUrl: 'http://localhost:11434/v1/chat/completions',
      authorization: undefined,
    })
  })

  test('explicit baseUrl and model win over env, and FX_API_KEY is sent to that server', async () => {
    expect(
      await choice({ baseUrl: 'https://router.example/api/v1', model: 'qwen3', env: { FX_BASE_URL: 'https://other.example/v1', FX_API_KEY: 'router-key' } }),
    ).toEqual({
      label: 'router.example',
      defaultModel: 'qwen3',
      notice: undefined,
      requestedUrl: 'https://router.example/api/v1/chat/completions',
      authorization: 'Bearer router-key',
    })
  })

  test('loopback addresses 127.x and [::1] are allowed over http', async () => {
    expect((await choice({ baseUrl: 'http://127.8.9.10:8080/v1', model: 'm' })).label).toEqual('127.8.9.10:8080')
    expect((await choice({ baseUrl: 'http://[::1]:1234/v1', model: 'm' })).label).toEqual('[::1]:1234')
  })

  test('plain http to another host falls back to the demo with a notice saying why', async () => {
    expect(await choice({ baseUrl: 'http://192.168.1.20:11434/v1', model: 'llama3.2' })).toEqual({
      label: 'demo',
      defaultModel: 'demo',
      notice:
        'refused http://192.168.1.20:11434: plain http is allowed only for localhost, because prompts and keys would cross the network unencrypted; use https; using the offline demo',
      requestedUrl: undefined,
      authorization: undefined,
    })
  })

  test('a URL that does not parse, or a base URL without a model, falls back with a notice', async () => {
    expect((await choice({ baseUrl: 'localhost:11434', model: 'm' })).notice).toEqual(
      'refused "localhost:11434": the model server URL must start with https:// (or http://localhost); using the offline demo',
    )
    expect((await choice({ baseUrl: 'not a url', model: 'm' })).notice).toEqual(
      'the model server URL "not a url" is not a valid URL; using the offline demo',
    )
    expect((await choice({ env: { FX_BASE_URL: 'https://router.example/v1' } })).notice).toEqual(
      'a model server is set (https://router.example/v1) but no model; set FX_MODEL or add &model=<id>; using the offline demo',
    )
  })

  test('blank settings count as unset', async () => {
    expect((await choice({ baseUrl: '  ', apiKey: '', env: { AI_GATEWAY_API_KEY: '' } })).label).toEqual('demo')
  })
})
