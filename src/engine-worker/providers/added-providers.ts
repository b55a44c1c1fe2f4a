/**
 * Servers a person added with `/provider add <name> <baseUrl> [anthropic]`, remembered in the
 * configStore (id `providers`, a JSON list) so a reload offers them again. Only names and
 * addresses are kept here: a key for one is saved with /key <name>, sealed, apart from this.
 */
import type { CustomProviderConfig } from './provider-registry.ts'
import { refuseCustomProvider } from './provider-registry.ts'

/** One added server as it is stored. */
export type AddedProvider = { name: string; baseUrl: string; wire: 'openai' | 'anthropic' }

/** The stored list; anything malformed is dropped (a setting never stops the page). */
export function parseAddedProviders(stored: string | undefined): AddedProvider[] {
  if (!stored) return []
  try {
    const value: unknown = JSON.parse(stored)
    if (!Array.isArray(value)) return []
    return value.flatMap((item: unknown) => {
      const { name, baseUrl, wire } = (item ?? {}) as Record<string, unknown>
      if (typeof name !== 'string' || typeof baseUrl !== 'string') return []
      if (refuseCustomProvider(name, baseUrl) !== undefined) return []
      return [{ name, baseUrl, wire: wire === 'anthropic' ? 'anthropic' : 'openai' } as AddedProvider]
    })
  } catch {
    return []
  }
}

/** The list with `added` in it (replacing one of the same name), as it is stored. */
export function withAddedProvider(list: AddedProvider[], added: AddedProvider): AddedProvider[] {
  return [...list.filter((p) => p.name !== added.name), added]
}

/** As the registry's custom providers. */
export function asCustomProviders(list: AddedProvider[]): CustomProviderConfig[] {
  return list.map(({ name, baseUrl, wire }) => ({ name, baseUrl, ...(wire === 'anthropic' ? { wire } : {}) }))
}

/** Why `/provider add` refuses these, or undefined. Names are one word a person can type. */
export function refuseAddedProvider(name: string, baseUrl: string, taken: (name: string) => boolean): string | undefined {
  if (!/^[a-z0-9][a-z0-9._-]{0,39}$/i.test(name)) return `"${name}" is not a usable name: use letters, digits, ".", "_" or "-"`
  const refusal = refuseCustomProvider(name, baseUrl)
  if (refusal !== undefined) return refusal
  if (taken(name)) return `a built-in provider is called ${name}; choose another name`
  return undefined
}

/**
 * What a person typed after the picker's "another server", as a base URL: a missing scheme is
 * https (http for this machine), and a bare origin gets `/v1`, where OpenAI-compatible servers
 * (llama-server, vLLM, LM Studio, Ollama) answer. Anything unparsable is returned as typed, for
 * the usual refusal to name it.
 */
export function typedServerUrl(typed: string): string {
  const text = typed.trim()
  const local = /^(localhost|127\.|\[::1\])/i.test(text)
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `${local ? 'http' : 'https'}://${text}`
  try {
    const url = new URL(withScheme)
    return url.pathname === '/' && url.search === '' ? `${url.origin}/v1` : withScheme.replace(/\/+$/, '')
  } catch {
    return text
  }
}

/** A name a person can type for a server added by URL: its host and port, e.g. `localhost-8080`. */
export function nameForServer(baseUrl: string, taken: (name: string) => boolean): string {
  let host = 'server'
  try {
    const url = new URL(baseUrl)
    const hostname = url.hostname === '[::1]' ? 'localhost' : url.hostname
    host = `${hostname}${url.port ? `-${url.port}` : ''}`.replace(/[^a-z0-9._-]+/gi, '-').replace(/^[^a-z0-9]+/i, '').slice(0, 36) || 'server'
  } catch {
    // refused later with the URL named
  }
  let name = host
  for (let n = 2; taken(name); n++) name = `${host}-${n}`
  return name
}
