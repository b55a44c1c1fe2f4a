/**
 * The hosted model APIs fxterm knows by name. Each takes a key saved with `/key <name>`, which is
 * sent to that preset's base URL and nowhere else. Whether an API answers a browser page at all
 * (CORS) was checked for each against public reports (docs/providers.md has the result):
 * - OpenAI, OpenRouter, Gemini's OpenAI-compatible endpoint, Groq, Mistral and xAI take
 *   `Authorization: Bearer` from a page. Their preflights allow Authorization and Content-Type
 *   but not every header an SDK adds (Gemini fails on the OpenAI SDK's `x-stainless-*`,
 *   OpenRouter on `OpenAI-Beta`), so the requests carry no other header.
 * - Anthropic takes `x-api-key` only with `anthropic-dangerous-direct-browser-access: true`, on
 *   its own Messages API (anthropic-messages.ts).
 * - DeepSeek answers no preflight: from a page it works only through the app's own `fetch` (a
 *   proxy on its server). Without one the first request says so in one line instead of failing
 *   as an unexplained network error.
 * Where from: OpenAI Niek/chatgpt-web#330 (2026); Anthropic anthropic-sdk-typescript#703, #930
 * (`/v1/messages` and `/v1/models` answer browsers; batches and files do not); OpenRouter
 * davidmigloz/langchain_dart#510, open-pencil/open-pencil#247; Gemini meltylabs/chorus#35
 * (Dec 2025, after discuss.ai.google.dev thread 58619; nick1udwig/kibitz#218 and
 * FBarrca/obsidian-inlineAI#7 report a refusal from clients whose headers were not checked);
 * Groq davidmigloz/langchain_dart#510 (2024; groq-sdk's `dangerouslyAllowBrowser`); Mistral
 * mistralai/client-js#21 (Dec 2023), infiolab/infio-copilot#146 (an extra header fails);
 * DeepSeek rockbenben/subtitle-translator#18 (Dec 2025), yuanbw2025/storyforge#4 (2026; earlier
 * reports had it working); xAI: no report either way, so it is tried directly.
 */
import { originOf } from './key-origin.ts'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import { createAnthropicProvider } from './anthropic-messages.ts'
import { ModelCatalogError } from './list-models.ts'
import { createOpenAiCompatibleProvider, type OpenAiCompatibleOptions } from './openai-compatible.ts'

/** A hosted API with a key of its own. */
export type CloudPreset = {
  name: string
  /** Its API root. */
  baseUrl: string
  wire: 'openai' | 'anthropic'
  /** The model used until /model picks another. */
  model: string
  /** Whether the API answers a browser page's requests (CORS) without a proxy. */
  browser: boolean
  /** Where a person gets a key. */
  keyPage: string
}

/** In the order `/provider` and the first screen list them. */
export const CLOUD_PRESETS: readonly CloudPreset[] = [
  { name: 'openai', baseUrl: 'https://api.openai.com/v1', wire: 'openai', model: 'gpt-5-mini', browser: true, keyPage: 'https://platform.openai.com/api-keys' },
  { name: 'anthropic', baseUrl: 'https://api.anthropic.com/v1', wire: 'anthropic', model: 'claude-sonnet-4-5', browser: true, keyPage: 'https://console.anthropic.com/settings/keys' },
  { name: 'openrouter', baseUrl: 'https://openrouter.ai/api/v1', wire: 'openai', model: 'anthropic/claude-sonnet-4.5', browser: true, keyPage: 'https://openrouter.ai/keys' },
  { name: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai', wire: 'openai', model: 'gemini-2.5-flash', browser: true, keyPage: 'https://aistudio.google.com/apikey' },
  { name: 'groq', baseUrl: 'https://api.groq.com/openai/v1', wire: 'openai', model: 'openai/gpt-oss-120b', browser: true, keyPage: 'https://console.groq.com/keys' },
  { name: 'mistral', baseUrl: 'https://api.mistral.ai/v1', wire: 'openai', model: 'mistral-medium-latest', browser: true, keyPage: 'https://console.mistral.ai/api-keys' },
  { name: 'deepseek', baseUrl: 'https://api.deepseek.com/v1', wire: 'openai', model: 'deepseek-chat', browser: false, keyPage: 'https://platform.deepseek.com/api_keys' },
  { name: 'xai', baseUrl: 'https://api.x.ai/v1', wire: 'openai', model: 'grok-code-fast-1', browser: true, keyPage: 'https://console.x.ai' },
]

/** What a preset shares with the page's other providers. */
export type CloudPresetOptions = Pick<OpenAiCompatibleOptions, 'fetch' | 'origin' | 'now'> & {
  /** The saved key of a provider for the URL a request goes to, read at each request. */
  key: (provider: string, url: string) => Promise<string | undefined>
  /** True when requests go through the app's own `fetch` (a proxy), so CORS does not apply. */
  proxied?: boolean
  /** Base URL overrides by preset name (tests point presets at a local mock server). */
  baseUrls?: Record<string, string>
}

/** The one line for an API that refuses browser pages. */
export function browserRefusal(preset: CloudPreset): string {
  return `${preset.name} does not accept requests from a browser page (its API sends no CORS headers); the app embedding fxterm can pass a fetch option that sends them through its own server.`
}

/** The preset whose API root has `url`'s exact origin, if any. */
export function presetAtOrigin(url: string): CloudPreset | undefined {
  const origin = originOf(url)
  return origin === undefined ? undefined : CLOUD_PRESETS.find((preset) => originOf(preset.baseUrl) === origin)
}

/** The refusal line of a preset whose API refuses browser pages; undefined for any other name. */
export function browserRefusalFor(name: string): string | undefined {
  const preset = CLOUD_PRESETS.find((candidate) => candidate.name === name)
  return preset && !preset.browser ? browserRefusal(preset) : undefined
}

/** Creates the provider for one preset; its key goes to its own base URL only. */
export function createCloudProvider(preset: CloudPreset, options: CloudPresetOptions): ModelProvider {
  const baseUrl = options.baseUrls?.[preset.name] ?? preset.baseUrl
  const key = (url: string) => options.key(preset.name, url)
  const provider =
    preset.wire === 'anthropic'
      ? createAnthropicProvider({ baseUrl, name: preset.name, label: preset.name, model: preset.model, key, ...pick(options) })
      : createOpenAiCompatibleProvider({ ...pick(options), baseUrl, name: preset.name, label: preset.name, model: preset.model, key, keyHint: `/key ${preset.name} saves one` })
  if (preset.browser || options.proxied) return provider
  const message = browserRefusal(preset)
  return {
    ...provider,
    async stream(_request, emit) {
      emit({ type: 'error', code: ErrorCode.FX_MODEL_BROWSER_REFUSED, message, retryable: false })
    },
    async listModels() {
      throw new ModelCatalogError(ErrorCode.FX_MODEL_BROWSER_REFUSED, message, false)
    },
  }
}

function pick(options: CloudPresetOptions): Pick<OpenAiCompatibleOptions, 'fetch' | 'origin' | 'now'> {
  return {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.now ? { now: options.now } : {}),
  }
}
