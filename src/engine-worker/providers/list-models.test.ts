import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelInfo } from '../../shared/protocol/model-events.ts'
import { ModelCatalogError } from './list-models.ts'
import { parseModelList } from './model-list.ts'
import { createOpenAiCompatibleProvider, type OpenAiCompatibleOptions } from './openai-compatible.ts'
import { fakeFetch } from '../../../test/support/providers.ts'

const KEY = 'vck_list-models-secret-99'

function provider(respond: Parameters<typeof fakeFetch>[0], options: Partial<OpenAiCompatibleOptions> = {}) {
  const { fetch, calls } = fakeFetch(respond)
  const created = createOpenAiCompatibleProvider({ baseUrl: 'https://ai-gateway.vercel.sh/v1/', model: 'm', label: 'ai-gateway', fetch, permissions: null, ...options })
  const list = (): Promise<ModelInfo[]> => created.listModels!(new AbortController().signal)
  return { list, calls }
}

/** The error a listModels call rejected with, as plain fields. */
async function rejection(list: () => Promise<ModelInfo[]>) {
  const error = await list().then(
    () => undefined,
    (reason: unknown) => reason,
  )
  expect(error).toBeInstanceOf(ModelCatalogError)
  const { code, message, retryable } = error as ModelCatalogError
  return { code, message, retryable }
}

/** An AI Gateway style catalog: OpenAI's shape plus context_window, max_tokens, type and tags. */
const GATEWAY_MODELS = {
  object: 'list',
  data: [
    {
      id: 'anthropic/claude-sonnet-4.5',
      object: 'model',
      owned_by: 'anthropic',
      context_window: 200000,
      max_tokens: 64000,
      type: 'language',
      tags: ['file-input', 'reasoning', 'tool-use', 'vision', 'implicit-caching'],
    },
    { id: 'openai/text-embedding-3-small', object: 'model', type: 'embedding', context_window: 8192 },
    { id: 'google/imagen-4.0-generate', object: 'model', type: 'image' },
    { id: 'mistral/ministral-3b', object: 'model', context_window: 128000, max_tokens: 4000, type: 'language', tags: ['tool-use'] },
    { id: 'anthropic/claude-sonnet-4.5', object: 'model', type: 'language' },
  ],
}

describe('listing models', () => {
  test('GET {base}/models with the key, keeping language models and AI Gateway metadata', async () => {
    const { list, calls } = provider(() => Response.json(GATEWAY_MODELS), { apiKey: KEY })
    expect(await list()).toEqual([
      { id: 'anthropic/claude-sonnet-4.5', contextWindow: 200000, maxOutputTokens: 64000, supportsToolUse: true, supportsImages: true, efforts: ['low', 'medium', 'high'], fast: false },
      { id: 'mistral/ministral-3b', contextWindow: 128000, maxOutputTokens: 4000, supportsToolUse: true, supportsImages: false, efforts: [], fast: false },
    ])
    expect(calls.map((call) => ({ url: call.url, headers: call.init?.headers }))).toEqual([
      { url: 'https://ai-gateway.vercel.sh/v1/models', headers: { Accept: 'application/json', Authorization: `Bearer ${KEY}` } },
    ])
  })

  test("a plain OpenAI list (Ollama, LM Studio, llama.cpp) gives ids only, and a fast tier leaves fast unknown", async () => {
    const body = { object: 'list', data: [{ id: 'llama3.2:latest', object: 'model', owned_by: 'library' }, { id: 'qwen3:8b', object: 'model' }, { object: 'model' }] }
    const { list, calls } = provider(() => Response.json(body), { fastServiceTier: 'priority' })
    expect(await list()).toEqual([{ id: 'llama3.2:latest' }, { id: 'qwen3:8b' }])
    expect(calls[0]?.init?.headers).toEqual({ Accept: 'application/json' })
  })

  test('a model lists ultrafast among its service tiers or tags; a tier list without it says it has none', async () => {
    const body = {
      object: 'list',
      data: [
        { id: 'openai/gpt-6-astra', object: 'model', service_tiers: ['default', 'priority', 'ultrafast'] },
        { id: 'openai/gpt-5', object: 'model', service_tiers: ['default', 'priority'] },
        { id: 'xai/grok-5', object: 'model', type: 'language', tags: ['tool-use', 'ultrafast'] },
      ],
    }
    const { list } = provider(() => Response.json(body), { apiKey: KEY })
    expect((await list()).map(({ id, ultrafast }) => ({ id, ultrafast }))).toEqual([
      { id: 'openai/gpt-6-astra', ultrafast: true },
      { id: 'openai/gpt-5', ultrafast: false },
      { id: 'xai/grok-5', ultrafast: true },
    ])
  })

  test('modelCatalog answers without any request, from ids or full entries', async () => {
    const { list, calls } = provider(() => Response.json(GATEWAY_MODELS), {
      apiKey: KEY,
      modelCatalog: ['openai/gpt-5', { id: 'anthropic/claude-opus-4.1', contextWindow: 200000, supportsToolUse: true }],
    })
    expect(await list()).toEqual([
      { id: 'openai/gpt-5', fast: false },
      { id: 'anthropic/claude-opus-4.1', contextWindow: 200000, supportsToolUse: true, fast: false },
    ])
    expect(calls).toEqual([])
  })

  test('a rejected key rejects with FX_MODEL_UNAUTHORIZED, the echoed key masked', async () => {
    const { list } = provider(() => new Response(`{"error":{"message":"invalid key ${KEY}"}}`, { status: 401 }), { apiKey: KEY })
    expect(await rejection(list)).toEqual({
      code: ErrorCode.FX_MODEL_UNAUTHORIZED,
      message: 'ai-gateway rejected the key for listing models (HTTP 401: invalid key ***); run /login or set a key, then try again',
      retryable: false,
    })
  })

  test('a server without /models says how to name a model instead', async () => {
    const { list } = provider(() => new Response('Not Found', { status: 404 }), { label: 'router.example', baseUrl: 'https://router.example/v1' })
    expect(await rejection(list)).toEqual({
      code: ErrorCode.FX_MODEL_CATALOG_UNAVAILABLE,
      message: "router.example does not list its models at https://router.example/v1/models (HTTP 404); name a model with /model <id>, or list the models in the provider's settings",
      retryable: false,
    })
  })

  test('a 5xx is retryable and a body that is not a model list is malformed', async () => {
    expect(await rejection(provider(() => new Response('', { status: 502 })).list)).toEqual({
      code: ErrorCode.FX_MODEL_CATALOG_UNAVAILABLE,
      message: 'ai-gateway could not list its models (HTTP 502); try again in a moment',
      retryable: true,
    })
    expect(await rejection(provider(() => Response.json({ models: ['a'] })).list)).toEqual({
      code: ErrorCode.FX_MODEL_CATALOG_MALFORMED,
      message: 'ai-gateway answered https://ai-gateway.vercel.sh/v1/models with something other than a model list; name a model with /model <id>',
      retryable: false,
    })
  })

  test('a fetch that fails is diagnosed like a chat request: Ollama refusing the origin gets OLLAMA_ORIGINS', async () => {
    const { list } = provider(
      (_url, init) => {
        if (init?.mode === 'no-cors') return new Response(null)
        throw new TypeError('Failed to fetch')
      },
      { baseUrl: 'http://localhost:11434/v1', label: 'ollama', server: 'ollama', origin: 'https://fxterm.example' },
    )
    expect(await rejection(list)).toEqual({
      code: ErrorCode.FX_MODEL_CORS_REFUSED,
      message: 'localhost:11434 is running but refused requests from https://fxterm.example (CORS); restart Ollama with OLLAMA_ORIGINS=https://fxterm.example ollama serve',
      retryable: false,
    })
  })

  test('an aborted listing rejects with FX_MODEL_CATALOG_CANCELLED', async () => {
    const controller = new AbortController()
    const { fetch } = fakeFetch(() => {
      controller.abort()
      throw new DOMException('aborted', 'AbortError')
    })
    const created = createOpenAiCompatibleProvider({ baseUrl: 'https://x.example/v1', model: 'm', label: 'x.example', fetch })
    await expect(created.listModels!(controller.signal)).rejects.toMatchObject({ code: ErrorCode.FX_MODEL_CATALOG_CANCELLED, message: 'listing the models of x.example was cancelled' })
  })
})

describe('parsing a model list', () => {
  test('OpenRouter-style context_length and supported_parameters are understood too', () => {
    expect(parseModelList({ data: [{ id: 'qwen/qwen3-coder', context_length: 262144, supported_parameters: ['tools', 'reasoning', 'temperature'] }] })).toEqual([
      { id: 'qwen/qwen3-coder', contextWindow: 262144, supportsToolUse: true, efforts: ['low', 'medium', 'high'] },
    ])
  })

  test('anything but { data: [...] } is not a model list', () => {
    expect([parseModelList(null), parseModelList([]), parseModelList({ data: 'x' })]).toEqual([undefined, undefined, undefined])
    expect(parseModelList({ data: [] })).toEqual([])
  })
})
