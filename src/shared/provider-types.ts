/**
 * Types of model providers that cross threads and the public API: a provider named by the app, and a
 * model catalog. Pure types, no code.
 */

import type { ModelInfo } from './protocol/model-events.ts'

/**
 * A server that speaks the OpenAI Chat Completions API, shaped like the reference's custom
 * providers. `baseUrl` must be https, or http on localhost / 127.0.0.0/8 / [::1]. `models`, when
 * given, is the provider's whole catalog (no `/models` request) and its first id the default.
 */
export type CustomProviderConfig = {
  name: string
  baseUrl: string
  models?: { [id: string]: CustomModelConfig }
  /** Sent as a bearer token to this provider's base URL only. */
  apiKey?: string
  /** Its wire protocol: OpenAI Chat Completions (the default) or Anthropic Messages. */
  wire?: 'openai' | 'anthropic'
}

/** What a custom provider's configuration says about one of its models. */
export type CustomModelConfig = { contextWindow?: number; maxOutputTokens?: number; supportsToolUse?: boolean; supportsImages?: boolean; ultrafast?: boolean }

/** A catalog given in configuration: bare ids, or full entries. */
export type ModelCatalog = readonly (string | ModelInfo)[]
