import { describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import type { AuthDisplayState, EngineEffect } from '../../src/shared/messages/engine-frames.ts'

const PROVIDERS = [
  { name: 'demo', label: 'demo', model: 'demo', baseUrl: '', key: 'not_needed' as const },
  { name: 'ai-gateway', label: 'ai-gateway', model: 'anthropic/claude-sonnet-4.5', baseUrl: 'https://ai-gateway.vercel.sh/v1', key: 'account' as const },
  { name: 'openai', label: 'openai', model: 'gpt-5-mini', baseUrl: 'https://api.openai.com/v1', key: 'key' as const },
  { name: 'ollama', label: 'ollama', model: '', baseUrl: 'http://localhost:11434/v1', key: 'not_needed' as const },
]

async function boot(): Promise<Harness> {
  return createHarness({ providers: PROVIDERS, account: 'ai-gateway' })
}

/** Feeds a display state from the host and draws what the engine wrote. */
async function show(h: Harness, state: AuthDisplayState): Promise<EngineEffect[]> {
  const effects = h.engine.auth(state, 2_000_000)
  for (const e of effects) {
    if (e.kind === 'write') await new Promise<void>((resolve) => h.term.write(e.bytes, resolve))
    else if (e.kind !== 'echo_hint') h.effects.push(e)
  }
  return effects
}

const actions = (h: Harness) => h.allOf('auth').map((e) => e.action)

describe('sign-in as the engine shows it', () => {
  it('/login asks the host, then shows the URL, the code and the waiting state', async () => {
    const h = await boot()
    await h.type('/login\r')
    expect(actions(h)).toEqual(['login'])
    expect(h.screen()).toContain('Preparing sign-in…')
    await show(h, { state: 'waiting', url: 'https://issuer.example/activate', code: 'WDJB-MJHT' })
    const screen = h.screen()
    expect(screen).toContain('Sign in')
    expect(screen).toContain('  Open  https://issuer.example/activate')
    expect(screen).toContain('  Code  WDJB-MJHT')
    expect(screen).toContain('Waiting for authorization…  (Enter opens the page again · Esc cancels)')
  })

  it('Enter opens the page again and Esc cancels while it waits; typing goes nowhere', async () => {
    const h = await boot()
    await h.type('/login\r')
    await show(h, { state: 'waiting', url: 'https://issuer.example/activate', code: 'ABCD-EFGH' })
    await h.type('x\r')
    await h.type('\x1b')
    expect(actions(h)).toEqual(['login', 'login_reopen', 'login_cancel'])
    await show(h, { state: 'cancelled' })
    expect(h.screen()).toContain('Sign-in cancelled.')
    expect(h.screen()).not.toContain('Waiting for authorization…')
    expect(h.screen()).not.toMatch(/❯ x/)
  })

  it('signed in: a notice, and the account provider becomes the active one', async () => {
    const h = await boot()
    await h.type('/login\r')
    await show(h, { state: 'signed_in', credential: 'signed_in' })
    expect(h.screen()).toContain('✓ Signed in.')
    expect(h.screen()).toContain('Provider: ai-gateway')
    expect(h.lastOf('config_set')).toEqual({ kind: 'config_set', id: 'model', value: 'anthropic/claude-sonnet-4.5' })
    await h.type('/status\r')
    expect(h.screen()).toContain('sign-in    signed in')
  })

  it('a sign-in in another tab is told, and this tab uses the account too', async () => {
    const h = await boot()
    await show(h, { state: 'signed_in', message: 'Signed in in another tab.', credential: 'signed_in' })
    expect(h.screen()).toContain('✓ Signed in in another tab.')
    expect(h.screen()).toContain('Provider: ai-gateway')
  })

  it('a failure says what failed', async () => {
    const h = await boot()
    await h.type('/login\r')
    await show(h, { state: 'failed', message: 'The sign-in code expired before it was approved. Run /login for a new one.' })
    expect(h.screen()).toContain('✗ Sign-in failed: The sign-in code expired before it was approved. Run')
  })

  it('an issuer\'s hostile URL or code cannot write escape sequences', async () => {
    const h = await boot()
    await h.type('/login\r')
    const effects = await show(h, { state: 'waiting', url: 'https://evil.example/\x1b[2J\x07x', code: 'AB\x1b]0;pwn\x07CD' })
    const written = effects.filter((e) => e.kind === 'write').map((e) => new TextDecoder().decode((e as { bytes: Uint8Array }).bytes)).join('')
    expect(written).not.toContain('\x1b[2J')
    expect(written).not.toContain('\x1b]0;')
    expect(h.screen()).toContain('  Code  AB]0;pwnCD')
  })

  it('/key: the page stops echoing in the same frame, and only the length is drawn', async () => {
    const h = await boot()
    const effects = await h.type('/key\r')
    expect(effects.filter((e) => e.kind === 'echo_hint').at(-1)).toEqual({ kind: 'echo_hint', columns: 0 })
    expect(h.allOf('auth')).toEqual([{ kind: 'auth', action: 'key', provider: 'ai-gateway' }])
    await show(h, { state: 'key_entry', length: 6 })
    // The prompt names whose key it is.
    expect(h.screen()).toContain('  ai-gateway API key: ••••••  (paste it · Enter saves · Esc cancels)')
    await show(h, { state: 'key_saved', provider: 'ai-gateway', credential: 'key' })
    expect(h.screen().replace(/\s+/g, ' ')).toContain('✓ Key for ai-gateway saved (sealed in this browser; sent only to ai-gateway.vercel.sh).')
    expect(h.screen()).toContain('Provider: ai-gateway')
  })

  it('/key <provider> asks for that provider\'s key, and saving it switches to that provider', async () => {
    const h = await boot()
    await h.type('/key openai\r')
    expect(h.allOf('auth')).toEqual([{ kind: 'auth', action: 'key', provider: 'openai' }])
    await show(h, { state: 'key_saved', provider: 'openai' })
    expect(h.screen().replace(/\s+/g, ' ')).toContain('✓ Key for openai saved (sealed in this browser; sent only to api.openai.com).')
    expect(h.screen().replace(/\s+/g, ' ')).toContain('Provider: openai (https://api.openai.com/v1) · model gpt-5-mini')
    // With openai active, a bare /key is about openai's key.
    await h.type('/key clear\r')
    expect(h.allOf('auth').at(-1)).toEqual({ kind: 'auth', action: 'key_clear', provider: 'openai' })
  })

  it('/key github asks for a GitHub token (for git, not a model) and says where it goes', async () => {
    const h = await boot()
    await h.type('/key github\r')
    expect(h.allOf('auth')).toEqual([{ kind: 'auth', action: 'key', provider: 'github' }])
    await show(h, { state: 'key_entry', length: 3 })
    expect(h.screen()).toContain('GitHub token: •••')
    await show(h, { state: 'key_saved', provider: 'github' })
    expect(h.screen().replace(/\s+/g, ' ')).toContain('✓ Key for github saved (sealed in this browser; sent only to api.github.com).')
    // The model provider did not change.
    expect(h.screen()).not.toContain('Provider: github')
  })

  it('/key refuses what may be a key and a provider that needs none', async () => {
    const h = await boot()
    await h.type('/key sk-typed-in-the-open\r')
    expect(h.screen()).toContain('/key takes a provider name, not the key')
    expect(h.screen()).not.toContain('sk-typed-in-the-open')
    await h.type('/key ollama\r')
    expect(h.screen()).toContain('ollama needs no key. Keys are for: ai-gateway, openai, github (git).')
    await h.type('/key clear\r')
    expect(actions(h)).toEqual(['key_clear'])
  })

  it('first run without a credential offers the ways to a model; with one, the account is used', async () => {
    const none = await boot()
    await show(none, { state: 'credential', credential: 'none', startup: true })
    expect(none.screen().replace(/\s+/g, ' ')).toContain('No model yet, so this is the offline demo. /model picks a real one (your key, a local server or a URL) · /login signs in.')
    const signedIn = await boot()
    await show(signedIn, { state: 'credential', credential: 'signed_in', startup: true })
    expect(signedIn.screen()).toContain('Using ai-gateway · anthropic/claude-sonnet-4.5 (signed in).')
    expect(signedIn.allOf('catalog_request')).toEqual([{ kind: 'catalog_request', provider: 'ai-gateway' }])
  })

  it('without sign-in configured, the first-run row leaves /login out and /login says in one line what to do', async () => {
    const h = await createHarness({ providers: PROVIDERS, account: 'ai-gateway', signIn: false })
    await show(h, { state: 'credential', credential: 'none', startup: true })
    expect(h.screen().replace(/\s+/g, ' ')).toContain('No model yet, so this is the offline demo. /model picks a real one: your key, a local server or a URL.')
    expect(h.screen()).not.toContain('/login signs in')
    await h.type('/login\r')
    expect(h.screen()).toContain('Sign-in is not set up on this page: /key <provider> saves an API key')
    expect(actions(h)).toEqual([])
  })

  it('signed out in another tab: the notice, and back to the demo when nothing is left', async () => {
    const h = await boot()
    await show(h, { state: 'credential', credential: 'signed_in', startup: true })
    await show(h, { state: 'signed_out', message: 'Signed out in another tab.', credential: 'none' })
    expect(h.screen()).toContain('Signed out in another tab.')
    expect(h.screen()).toContain('Provider: demo')
  })

  it('a page without sign-in says so', async () => {
    const h = await createHarness()
    await h.type('/login\r')
    expect(h.allOf('auth')).toEqual([])
    expect(h.screen()).toContain('Sign-in is not available on this page.')
  })

  it('from the first screen to a real model in three steps: a provider, its key, a model', async () => {
    const h = await createHarness({ providers: PROVIDERS, account: 'ai-gateway', signIn: false, provider: 'demo', model: 'demo' })
    await show(h, { state: 'credential', credential: 'none', startup: true })
    // Step 1: /model on the demo lists every way to a model; openai is chosen.
    await h.type('/model\r')
    const listed = h.screen().replace(/\s+/g, ' ')
    expect(listed).toContain('Choose where your model runs')
    expect(listed).toContain('openai paste a key, then pick a model')
    expect(listed).toContain('ollama on this machine (localhost:11434)')
    expect(listed).toContain('another server type its URL next')
    await h.type('openai\r')
    // Step 2: its key, typed masked (the host captures it), then saved.
    expect(h.allOf('auth')).toEqual([{ kind: 'auth', action: 'key', provider: 'openai' }])
    await show(h, { state: 'key_saved', provider: 'openai' })
    expect(h.allOf('catalog_request').at(-1)).toEqual({ kind: 'catalog_request', provider: 'openai' })
    // Step 3: its catalog opens as a picker; Enter on a model, and the prompt goes there.
    await h.catalog({ provider: 'openai', models: [{ id: 'gpt-5-mini' }, { id: 'gpt-5' }] })
    expect(h.screen()).toContain('Choose a model on openai')
    await h.type('\x1b[B\r')
    await h.type('hello\r')
    expect(h.lastOf('model_request')!.request).toMatchObject({ provider: 'openai', model: 'gpt-5' })
  })

  it('the first screen\'s list counts ways to a model, not models, when it is longer than the screen', async () => {
    const hosted = ['anthropic', 'openrouter', 'gemini', 'groq', 'mistral', 'deepseek', 'xai'].map((name) => ({ name, label: name, model: 'm', baseUrl: `https://${name}.example/v1`, key: 'key' as const }))
    const h = await createHarness({ providers: [...PROVIDERS, ...hosted], account: 'ai-gateway', signIn: false, provider: 'demo', model: 'demo' })
    await show(h, { state: 'credential', credential: 'none', startup: true })
    await h.type('/model\r')
    const screen = h.screen()
    // Four page providers, seven hosted ones and "another server".
    expect(screen).toContain('  12 choices')
    expect(screen).not.toContain('12 models')
  })
})
