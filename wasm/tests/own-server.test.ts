// A person's own server as the engine shows it: the URL typed after the picker's "another
// server", /provider add switching to it, /provider remove, keyless servers, and a 401.
import { describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import type { BootProvider } from '../../src/shared/messages/engine-frames.ts'

const PROVIDERS: BootProvider[] = [
  { name: 'demo', label: 'demo', model: 'demo', baseUrl: '', key: 'not_needed' },
  { name: 'openai', label: 'openai', model: 'gpt-5-mini', baseUrl: 'https://api.openai.com/v1', key: 'key' },
  { name: 'ollama', label: 'localhost:11434', model: '', baseUrl: 'http://localhost:11434/v1', key: 'not_needed' },
]

const SERVER: BootProvider = { name: 'localhost-8080', label: 'localhost-8080', model: '', baseUrl: 'http://localhost:8080/v1', key: 'optional', added: true }

async function boot(): Promise<Harness> {
  return createHarness({ providers: PROVIDERS, provider: 'demo', model: 'demo' })
}

/** The host's answer to a provider_add: the server listed, and `use` to switch to it. */
async function added(h: Harness, entry: BootProvider, use?: string): Promise<void> {
  for (const e of h.engine.providers([entry], 2_000_000, use)) {
    if (e.kind === 'write') await new Promise<void>((resolve) => h.term.write(e.bytes, resolve))
    else if (e.kind === 'catalog_request') h.catalogRequests.push(e.provider)
    else if (e.kind !== 'echo_hint') h.effects.push(e)
  }
}

const flat = (h: Harness) => h.screen().replace(/\s+/g, ' ')
const actions = (h: Harness) => h.allOf('action').map((e) => e.action)
const composer = (h: Harness) => h.viewport().filter((line) => line.startsWith('❯')).map((line) => line.trimEnd())

describe('another server, in three steps', () => {
  it('the picker asks for the URL inline; Enter hands it to the host, which switches to it', async () => {
    const h = await boot()
    await h.type('/model\r')
    expect(flat(h)).toContain('another server type its URL next')
    await h.type('another\r')
    expect(flat(h)).toContain('Server URL, e.g. http://localhost:8080/v1 · Enter adds it · Esc cancels')
    await h.type('localhost:8080\r')
    expect(actions(h)).toEqual([{ action: 'provider_add', name: '', baseUrl: 'localhost:8080', wire: 'openai' }])
    expect(flat(h)).not.toContain('Server URL, e.g.')
    expect(composer(h)).toEqual(['❯'])
    // The URL is not a prompt: it is kept out of history.
    expect(h.allOf('history_append').map((e) => e.value)).toEqual(['/model'])
    await added(h, SERVER, 'localhost-8080')
    expect(flat(h)).toContain('Provider: localhost-8080 (http://localhost:8080/v1) · asking it for its models… · key not needed.')
    expect(h.catalogRequests.at(-1)).toBe('localhost-8080')
    await h.catalog({ provider: 'localhost-8080', models: [{ id: 'qwen3' }, { id: 'llama3.2' }] })
    expect(h.screen()).toContain('Choose a model on localhost-8080')
    await h.type('\r')
    await h.type('hello\r')
    expect(h.lastOf('model_request')!.request).toMatchObject({ provider: 'localhost-8080', model: 'qwen3' })
  })

  it('Esc leaves the URL prompt without adding anything', async () => {
    const h = await boot()
    await h.type('/model\r')
    await h.type('another\r')
    await h.type('http://x')
    await h.type('\x1b')
    expect(actions(h)).toEqual([])
    expect(flat(h)).toContain('No server was added. /model offers it again.')
    expect(composer(h)).toEqual(['❯'])
  })

  it('a server that answers 401 is asked for its key, and lists its models once the key is in', async () => {
    const h = await boot()
    await h.type('/provider add mine https://models.example/v1\r')
    expect(actions(h)).toEqual([{ action: 'provider_add', name: 'mine', baseUrl: 'https://models.example/v1', wire: 'openai' }])
    const mine = { ...SERVER, name: 'mine', label: 'mine', baseUrl: 'https://models.example/v1' }
    await added(h, mine, 'mine')
    expect(flat(h)).toContain('Provider: mine (https://models.example/v1) · asking it for its models… · key not needed.')
    await h.catalog({ provider: 'mine', models: [], error: 'mine needs a key for listing models (HTTP 401)', unauthorized: true })
    expect(flat(h)).toContain('mine answered 401: it wants a key.')
    expect(h.allOf('auth').at(-1)).toEqual({ kind: 'auth', action: 'key', provider: 'mine' })
    h.engine.auth({ state: 'key_saved', provider: 'mine' }, 2_000_000)
    expect(h.catalogRequests.filter((p) => p === 'mine')).toHaveLength(1)
  })
})

describe('/provider remove', () => {
  it('refuses a preset and says why', async () => {
    const h = await boot()
    await h.type('/provider remove ollama\r')
    expect(flat(h)).toContain('ollama is built in, so it stays. Only servers added with /provider add can be removed.')
    expect(actions(h)).toEqual([])
  })

  it('removes an added server in use and says it is back on the demo', async () => {
    const h = await boot()
    await added(h, SERVER, 'localhost-8080')
    await h.type('/provider remove localhost-8080\r')
    expect(actions(h)).toEqual([{ action: 'provider_remove', name: 'localhost-8080' }])
    expect(flat(h)).toContain('Removed localhost-8080 (http://localhost:8080/v1) and any key saved for it. It was in use, so demo is now.')
    expect(flat(h)).toContain('Provider: demo')
    await h.type('/provider\r')
    expect(h.screen().split('Providers').at(-1)).not.toContain('localhost-8080')
  })
})

describe('keyless servers and /status', () => {
  it('a local server says "key not needed"; /status names its host once', async () => {
    const h = await boot()
    await h.type('/provider ollama\r')
    expect(flat(h)).toContain('Provider: ollama (http://localhost:11434/v1) · asking it for its models… · key not needed.')
    await h.catalog({ provider: 'ollama', models: [{ id: 'llama3.2' }] })
    await h.type('/status\r')
    const row = h.screen().split('\n').find((line) => line.startsWith('  provider'))
    expect(row).toBe('  provider   ollama · localhost:11434')
  })

  it('/status names an added server and its host once', async () => {
    const h = await boot()
    await added(h, { ...SERVER, name: 'mock', label: 'mock', baseUrl: 'http://127.0.0.1:4392/v1' }, 'mock')
    await h.type('/status\r')
    expect(h.screen().split('\n').find((line) => line.startsWith('  provider'))).toBe('  provider   mock · 127.0.0.1:4392')
  })
})
