/**
 * The local model servers fxterm knows by name, at their default addresses. They need no key,
 * and their catalog is whatever `GET /v1/models` lists (the models pulled or loaded there), so
 * they have no default model: `/model` picks one from the catalog.
 */
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import { createOpenAiCompatibleProvider, type OpenAiCompatibleOptions } from './openai-compatible.ts'
import type { LocalServerKind } from './server-advice.ts'

/** A built-in local server. */
export type ProviderPreset = {
  /** The provider name, also its label. */
  name: LocalServerKind
  baseUrl: string
}

/** Ollama, LM Studio and llama.cpp's llama-server, in the order `/provider` lists them. */
export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  { name: 'ollama', baseUrl: 'http://localhost:11434/v1' },
  { name: 'lmstudio', baseUrl: 'http://localhost:1234/v1' },
  { name: 'llamacpp', baseUrl: 'http://localhost:8080/v1' },
]

/** What a preset shares with the page's other providers: fetch, origin, clock. */
export type PresetOptions = Pick<OpenAiCompatibleOptions, 'fetch' | 'origin' | 'now' | 'permissions'>

/** Creates the provider for one preset. No key is ever sent to it. */
export function createPresetProvider(preset: ProviderPreset, options: PresetOptions = {}): ModelProvider {
  return createOpenAiCompatibleProvider({
    ...options,
    name: preset.name,
    label: preset.name,
    baseUrl: preset.baseUrl,
    model: '',
    server: preset.name,
  })
}
