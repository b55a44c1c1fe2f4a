import { describe, expect, test } from 'vitest'
import type { ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import { PROVIDER_PRESETS } from './provider-presets.ts'
import { type ResolveProvidersOptions, resolveProviders } from './provider-registry.ts'
import { refuseBaseUrl } from './provider-settings.ts'
import { collect, fakeFetch, sseResponse, sseText } from '../../../test/support/providers.ts'

const TAPE = { version: 1 as const, turns: [], fallback: 'demo' }
const STOP = () => sseResponse([new TextEncoder().encode(sseText({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }, '[DONE]'))])

function resolve(options: ResolveProvidersOptions) {
  const { fetch, calls } = fakeFetch((url) => (url.endsWith('/models') ? Response.json({ data: [{ id: 'served-model' }] }) : STOP()))
  const resolved = resolveProviders({ demoTapeUrl: TAPE, ...options, fetch })
  const named = (name: string): ModelProvider => {
    const provider = resolved.providers.find((candidate) => candidate.name === name)
    if (provider === undefined) throw new Error(`no provider ${name}`)
    return provider
  }
  /** Where one request to `name` went, and with which Authorization. */
  const requestTo = async (name: string, request: Partial<ModelRequest> = {}) => {
    calls.length = 0
    await collect(named(name), { model: 'some-model', messages: [{ role: 'user', content: 'hi' }], tools: [], ...request })
    return calls.map((call) => ({ url: call.url, authorization: (call.init?.headers as Record<string, string>)['Authorization'] }))
  }
  return { ...resolved, names: resolved.providers.map((provider) => provider.name), named, requestTo, calls }
}

describe('the providers a page offers', () => {
  test('with nothing configured: the demo, active, and the three local presets, without a notice', () => {
    const { names, active, notice } = resolve({ env: {} })
    expect({ names, active, notice }).toEqual({ names: ['demo', 'ollama', 'lmstudio', 'llamacpp'], active: 'demo', notice: undefined })
  })

  test('the presets point at each server’s default address and send no key, even when keys are set', async () => {
    const resolved = resolve({ env: { AI_GATEWAY_API_KEY: 'gw-key-1234', FX_API_KEY: 'other-key-1234' } })
    expect(PROVIDER_PRESETS.map((preset) => [preset.name, preset.baseUrl])).toEqual([
      ['ollama', 'http://localhost:11434/v1'],
      ['lmstudio', 'http://localhost:1234/v1'],
      ['llamacpp', 'http://localhost:8080/v1'],
    ])
    for (const preset of PROVIDER_PRESETS) {
      expect(await resolved.requestTo(preset.name)).toEqual([{ url: `${preset.baseUrl}/chat/completions`, authorization: undefined }])
      expect(resolved.named(preset.name).label).toEqual(preset.name)
      expect(resolved.named(preset.name).defaultModel).toEqual('')
    }
  })

  test('a preset’s catalog is what its server lists, with no fast tier', async () => {
    const resolved = resolve({ env: {} })
    expect(await resolved.named('ollama').listModels?.(new AbortController().signal)).toEqual([{ id: 'served-model', fast: false }])
    expect(resolved.calls.map((call) => call.url)).toEqual(['http://localhost:11434/v1/models'])
  })

  test('a key adds AI Gateway and makes it active, with the priority tier for fast mode', async () => {
    const resolved = resolve({ env: { AI_GATEWAY_API_KEY: 'gw-key-1234' } })
    expect({ names: resolved.names, active: resolved.active }).toEqual({ names: ['demo', 'ai-gateway', 'ollama', 'lmstudio', 'llamacpp'], active: 'ai-gateway' })
    await resolved.requestTo('ai-gateway', { options: { fast: true } })
    expect(JSON.parse(String(resolved.calls[0]?.init?.body))).toMatchObject({ service_tier: 'priority' })
  })

  test('a base URL with a model adds a server named by its host and makes it active; the gateway key stays with the gateway', async () => {
    const resolved = resolve({ baseUrl: 'https://router.example/api/v1', model: 'qwen3', env: { AI_GATEWAY_API_KEY: 'gw-key-1234', FX_API_KEY: 'router-key' } })
    expect({ names: resolved.names, active: resolved.active }).toEqual({
      names: ['demo', 'ai-gateway', 'router.example', 'ollama', 'lmstudio', 'llamacpp'],
      active: 'router.example',
    })
    expect(await resolved.requestTo('router.example')).toEqual([{ url: 'https://router.example/api/v1/chat/completions', authorization: 'Bearer router-key' }])
    expect(await resolved.requestTo('ai-gateway')).toEqual([{ url: 'https://ai-gateway.vercel.sh/v1/chat/completions', authorization: 'Bearer gw-key-1234' }])
    expect(resolved.named('ai-gateway').defaultModel).toEqual('anthropic/claude-sonnet-4.5')
  })

  test('a base URL without a model is listed but the demo stays active, with today’s notice', () => {
    const { names, active, notice, named } = resolve({ env: { FX_BASE_URL: 'http://localhost:9000/v1' } })
    expect({ names, active, notice, defaultModel: named('localhost:9000').defaultModel }).toEqual({
      names: ['demo', 'localhost:9000', 'ollama', 'lmstudio', 'llamacpp'],
      active: 'demo',
      notice: 'a model server is set (http://localhost:9000/v1) but no model; set FX_MODEL or add &model=<id>; using the offline demo',
      defaultModel: '',
    })
  })

  test('preferred picks an existing provider, and an unknown one is ignored', () => {
    expect(resolve({ env: { AI_GATEWAY_API_KEY: 'gw-key-1234' }, preferred: 'ollama' }).active).toEqual('ollama')
    expect(resolve({ env: { AI_GATEWAY_API_KEY: 'gw-key-1234' }, preferred: 'gone-router' }).active).toEqual('ai-gateway')
  })

  test('a refused base URL still gets its notice when preferred picks another provider, without "using the offline demo"', () => {
    const { active, notice } = resolve({ baseUrl: 'http://192.168.1.20:11434/v1', model: 'm', preferred: 'lmstudio' })
    expect({ active, notice }).toEqual({
      active: 'lmstudio',
      notice: 'refused http://192.168.1.20:11434: plain http is allowed only for localhost, because prompts and keys would cross the network unencrypted; use https',
    })
  })

  test('modelCatalog answers the configured provider’s listModels without a request', async () => {
    const resolved = resolve({ env: { AI_GATEWAY_API_KEY: 'gw-key-1234' }, modelCatalog: ['openai/gpt-5'] })
    expect(await resolved.named('ai-gateway').listModels?.(new AbortController().signal)).toEqual([{ id: 'openai/gpt-5' }])
    expect(resolved.calls).toEqual([])
  })
})

/** What a person would notice about the active provider: label, model, notice, and where requests go. */
async function choice(options: ResolveProvidersOptions) {
  const resolved = resolve(options)
  const provider = resolved.named(resolved.active)
  await collect(provider, { model: '', messages: [{ role: 'user', content: 'hi' }], tools: [] })
  const request = resolved.calls[0]
  return {
    label: provider.label,
    defaultModel: provider.defaultModel,
    notice: resolved.notice,
    requestedUrl: request?.url,
    authorization: (request?.init?.headers as Record<string, string> | undefined)?.['Authorization'],
  }
}

describe('the active provider', () => {
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

describe('custom providers', () => {
  const router = {
    name: 'router',
    baseUrl: 'https://openrouter.ai/api/v1',
    models: { 'qwen/qwen3-coder': { contextWindow: 128000, supportsToolUse: true }, 'openai/gpt-5': {} },
    apiKey: 'router-secret-1234',
  }

  test('are added after the presets, with their models as the catalog and the first as default', async () => {
    const resolved = resolve({ env: {}, providers: [router] })
    expect(resolved.names).toEqual(['demo', 'ollama', 'lmstudio', 'llamacpp', 'router'])
    const provider = resolved.named('router')
    expect({ label: provider.label, defaultModel: provider.defaultModel }).toEqual({ label: 'router', defaultModel: 'qwen/qwen3-coder' })
    expect(await provider.listModels?.(new AbortController().signal)).toEqual([
      { id: 'qwen/qwen3-coder', contextWindow: 128000, supportsToolUse: true, fast: false },
      { id: 'openai/gpt-5', fast: false },
    ])
    expect(resolved.calls).toEqual([])
    expect(await resolved.requestTo('router')).toEqual([{ url: 'https://openrouter.ai/api/v1/chat/completions', authorization: 'Bearer router-secret-1234' }])
  })

  test('one named like a preset replaces it in place, e.g. Ollama on another port', async () => {
    const resolved = resolve({ env: {}, providers: [{ name: 'ollama', baseUrl: 'http://127.0.0.1:11500/v1' }] })
    expect(resolved.names).toEqual(['demo', 'ollama', 'lmstudio', 'llamacpp'])
    expect(await resolved.requestTo('ollama')).toEqual([{ url: 'http://127.0.0.1:11500/v1/chat/completions', authorization: undefined }])
  })

  test('a configured server whose host is a preset name (a container called ollama) keeps its own address', async () => {
    const resolved = resolve({ baseUrl: 'https://ollama/v1', model: 'llama3.2' })
    expect({ names: resolved.names, active: resolved.active }).toEqual({ names: ['demo', 'ollama', 'lmstudio', 'llamacpp'], active: 'ollama' })
    expect(await resolved.requestTo('ollama')).toEqual([{ url: 'https://ollama/v1/chat/completions', authorization: undefined }])
  })

  test('loopback http is accepted; other http, other schemes, reserved and empty names are refused with a notice', () => {
    const { names, notice, active } = resolve({
      env: {},
      providers: [
        { name: 'loop5', baseUrl: 'http://127.5.6.7:8000/v1' },
        { name: 'v6', baseUrl: 'http://[::1]:8000/v1' },
        { name: 'lan', baseUrl: 'http://example.com/v1' },
        { name: 'ftp', baseUrl: 'ftp://models.example/v1' },
        { name: 'ai-gateway', baseUrl: 'https://evil.example/v1' },
        { name: ' ', baseUrl: 'https://x.example/v1' },
      ],
    })
    expect({ names, active }).toEqual({ names: ['demo', 'ollama', 'lmstudio', 'llamacpp', 'loop5', 'v6'], active: 'demo' })
    expect(notice?.split(' · ')).toEqual([
      'custom provider "lan": refused http://example.com: plain http is allowed only for localhost, because prompts and keys would cross the network unencrypted; use https',
      'custom provider "ftp": refused "ftp://models.example/v1": the model server URL must start with https:// (or http://localhost)',
      'custom provider "ai-gateway": the name "ai-gateway" is taken by a built-in provider; choose another',
      'a custom provider needs a name',
    ])
  })
})

describe('the base URL rule', () => {
  test('https anywhere, http only on loopback', () => {
    expect(
      ['https://models.example/v1', 'http://localhost:1/v1', 'http://127.5.6.7/v1', 'http://[::1]:8080/v1', 'http://app.localhost/v1'].map(refuseBaseUrl),
    ).toEqual([undefined, undefined, undefined, undefined, undefined])
    expect(refuseBaseUrl('http://example.com')).toEqual(
      'refused http://example.com: plain http is allowed only for localhost, because prompts and keys would cross the network unencrypted; use https',
    )
    expect(refuseBaseUrl('ftp://127.0.0.1/v1')).toEqual('refused "ftp://127.0.0.1/v1": the model server URL must start with https:// (or http://localhost)')
    expect(refuseBaseUrl('http://128.0.0.1/v1')).toMatch(/^refused http:\/\/128\.0\.0\.1: plain http/)
  })
})
