/**
 * The settings that choose model providers (options and `env`), and the one rule every
 * configured base URL must pass. Read by `resolveProviders` and the account provider.
 */
import type { DemoTape } from './demo-tape.ts'
import type { DemoWorkspace } from './demo-files.ts'
import { isLoopbackHost } from './loopback-host.ts'

/** The AI Gateway's OpenAI-compatible API root. */
export const AI_GATEWAY_BASE_URL = 'https://ai-gateway.vercel.sh/v1'
/** The model used on AI Gateway when none is configured. */
export const AI_GATEWAY_DEFAULT_MODEL = 'anthropic/claude-sonnet-4.5'

/** The single-provider inputs to `resolveProviders`; explicit values win over `env`. */
export type ResolveProviderOptions = {
  /** Reads AI_GATEWAY_API_KEY, FX_BASE_URL, FX_MODEL, FX_API_KEY. */
  env?: Record<string, string | undefined>
  baseUrl?: string
  model?: string
  apiKey?: string
  fetch?: typeof fetch
  /** The demo tape's URL (default `./demos/tour.json`) or a loaded tape. */
  demoTapeUrl?: string | DemoTape
  /** Where the demo tape's commands run, to give it the files it was recorded with (demo-files.ts). */
  demoWorkspace?: DemoWorkspace | null
  /** The page's origin, for CORS advice (defaults to `location.origin`). */
  origin?: string
}

/** Empty and whitespace-only settings count as unset (an empty query parameter, a blank field). */
export function setting(...values: (string | undefined)[]): string | undefined {
  for (const value of values) if (value !== undefined && value.trim() !== '') return value.trim()
  return undefined
}

/**
 * Why `baseUrl` may not be used, or undefined when it is acceptable: https anywhere, plain http
 * only on localhost / 127.0.0.0/8 / [::1], because prompts and keys must not cross a network
 * unencrypted.
 */
export function refuseBaseUrl(baseUrl: string): string | undefined {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    return `the model server URL "${baseUrl}" is not a valid URL`
  }
  // `https://api.openai.com@other.test/` is other.test: a user part only disguises the host.
  if (url.username !== '' || url.password !== '') return `refused "${url.host}": a model server URL may not carry a user name or password (it names ${url.hostname}, whatever comes before the @)`
  if (url.protocol === 'https:') return undefined
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined
  if (url.protocol === 'http:') {
    return `refused ${url.origin}: plain http is allowed only for localhost, because prompts and keys would cross the network unencrypted; use https`
  }
  return `refused "${baseUrl}": the model server URL must start with https:// (or http://localhost)`
}
