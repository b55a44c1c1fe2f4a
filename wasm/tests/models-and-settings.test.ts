/**
 * Models and settings: the catalog the host sends, the /model picker, /models, /fast,
 * /provider, the status line (mode · model · ⚡ · context used), and the settings the engine
 * restores at boot and hands to the configStore only after accepting them.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'
import { composerRows, conversation, modelEvents } from './turn-helpers.ts'

const providers = [
  { name: 'ai-gateway', label: 'ai-gateway', model: 'anthropic/claude-sonnet-4.5', baseUrl: 'https://ai-gateway.vercel.sh/v1', key: 'account' as const },
  { name: 'ollama', label: 'localhost:11434', model: '', baseUrl: 'http://localhost:11434/v1', key: 'not_needed' as const },
  { name: 'demo', label: 'demo', model: 'demo' },
]
const boot = { provider: 'ai-gateway', model: 'anthropic/claude-sonnet-4.5', providers }
const catalog = {
  provider: 'ai-gateway',
  models: [
    { id: 'anthropic/claude-sonnet-4.5', contextWindow: 200_000, fast: false },
    { id: 'openai/gpt-5', contextWindow: 400_000, fast: true },
    { id: 'xai/grok-4', contextWindow: 256_000 },
  ],
}
const status = (h: Harness) => h.viewport().filter((l) => l.trim() !== '').at(-1)
const configs = (h: Harness) => h.allOf('config_set').map((c) => `${c.id}=${c.value}`)
const text = (h: Harness) => conversation(h).join(' ').replace(/\s+/g, ' ')

describe('the catalog and /model', () => {
  test('boot asks for the active provider catalog once', async () => {
    const h = await createHarness(boot)
    expect(h.catalogRequests).toEqual(['ai-gateway'])
  })

  test('/model opens a picker over the catalog; typing filters, Enter chooses and persists', async () => {
    const h = await createHarness(boot)
    await h.catalog(catalog)
    await h.type('/model\r')
    expect(h.viewport().join('\n')).toContain('❯ anthropic/claude-sonnet-4.5')
    expect(h.viewport().join('\n')).toContain('  openai/gpt-5')
    await h.type('gpt')
    expect(h.viewport().some((l) => l.includes('filter: gpt'))).toBe(true)
    expect(h.viewport().some((l) => /^(❯| ) anthropic\/claude/.test(l))).toBe(false)
    expect(h.viewport()).toContain('❯ ' + 'openai/gpt-5'.padEnd(32) + ' 400k context · fast')
    await h.type('\r')
    expect(configs(h)).toEqual(['model=openai/gpt-5'])
    expect(text(h)).toContain('Model set to openai/gpt-5 for the next request.')
    await h.type('hi\r')
    expect(h.lastOf('model_request')!.request.model).toBe('openai/gpt-5')
  })

  test('Esc closes the picker without changing the model', async () => {
    const h = await createHarness(boot)
    await h.catalog(catalog)
    await h.type('/model\r')
    await h.type('\x1b[B\x1b')
    expect(configs(h)).toEqual([])
    expect(status(h)).toMatch(/^ {2}auto · claude-sonnet-4\.5 /)
  })

  test('/model <id> checks the id against the catalog', async () => {
    const h = await createHarness(boot)
    await h.catalog(catalog)
    await h.type('/model nope/none\r')
    expect(text(h)).toContain('✗ Unknown model nope/none on ai-gateway. /models lists the 3 it has.')
    await h.type('/model xai/grok-4\r')
    expect(configs(h)).toEqual(['model=xai/grok-4'])
  })

  test('/models lists the catalog with context windows and marks the current model', async () => {
    const h = await createHarness(boot)
    await h.type('/models\r')
    expect(text(h)).toContain('Loading the model list of ai-gateway')
    await h.catalog(catalog)
    const lines = conversation(h)
    expect(lines).toContain('  ● ' + 'anthropic/claude-sonnet-4.5'.padEnd(36) + ' 200k context')
    expect(lines).toContain('    ' + 'openai/gpt-5'.padEnd(36) + ' 400k context · fast')
  })

  test('a catalog that failed to load says why and how to set a model by hand', async () => {
    const h = await createHarness(boot)
    await h.catalog({ provider: 'ai-gateway', models: [], error: 'The server refused the key.' })
    await h.type('/model\r')
    expect(text(h)).toContain('✗ The model list of ai-gateway could not be loaded: The server refused the key. Set one with /model <id>.')
  })
})

describe('/fast and the status line', () => {
  test('/fast is refused where the catalog says the model has no fast tier, and toggles where it has', async () => {
    const h = await createHarness(boot)
    await h.catalog(catalog)
    await h.type('/fast\r')
    expect(text(h)).toContain('✗ Fast mode is not available for anthropic/claude-sonnet-4.5 (LIBFX_MODEL_UNSUPPORTED_FAST).')
    await h.type('/model openai/gpt-5\r')
    await h.type('/fast\r')
    expect(configs(h)).toEqual(['model=openai/gpt-5', 'fast=on'])
    expect(status(h)).toMatch(/^ {2}auto · gpt-5 · ⚡ · /)
    await h.type('hi\r')
    expect(h.lastOf('model_request')!.request.options).toEqual({ fast: true })
  })

  test('the status line shows mode · model · context used of the window once a conversation exists', async () => {
    const h = await createHarness(boot)
    await h.catalog(catalog)
    expect(status(h)).toBe('  auto · claude-sonnet-4.5 · /workspace · /help')
    await h.type('hi\r')
    await modelEvents(h, h.lastOf('model_request')!.id, [
      { type: 'usage', inputTokens: 84_000, outputTokens: 10 },
      { type: 'text_delta', delta: 'Hello.' },
      { type: 'finish', reason: 'stop' },
    ])
    expect(status(h)).toBe('  auto · claude-sonnet-4.5 · 42% of 200k · /workspace · /help')
    await h.type('/mode ask\r')
    expect(status(h)).toMatch(/^ {2}ask · claude-sonnet-4\.5 · 42% of 200k/)
    expect(configs(h)).toEqual(['mode=ask'])
  })
})

describe('/provider', () => {
  test('lists the providers and switches, persisting provider and asking for its catalog', async () => {
    const h = await createHarness(boot)
    await h.type('/provider\r')
    expect(conversation(h).filter((line) => line.startsWith('  '))).toEqual([
      '  ● ai-gateway  key none          model anthropic/claude-sonnet-4.5',
      '      https://ai-gateway.vercel.sh/v1',
      '    ollama      key not needed    model (from its list)',
      '      http://localhost:11434/v1',
      '    demo        key not needed    model demo',
      '      offline, recorded replies',
    ])
    await h.type('/provider ollama\r')
    expect(configs(h)).toEqual(['provider=ollama'])
    expect(h.catalogRequests).toEqual(['ai-gateway', 'ollama'])
    expect(text(h)).toContain('Provider: ollama (http://localhost:11434/v1) · asking it for its models…')
    // The catalog names the first model when the preset has no default.
    await h.catalog({ provider: 'ollama', models: [{ id: 'llama3.2' }, { id: 'qwen3' }] })
    expect(configs(h)).toEqual(['provider=ollama', 'model=llama3.2'])
    await h.type('hi\r')
    expect(h.lastOf('model_request')!.request).toMatchObject({ provider: 'ollama', model: 'llama3.2' })
  })

  test('a local server that does not answer says at once how to start it; no dead end', async () => {
    const h = await createHarness(boot)
    await h.type('/provider ollama\r')
    const advice = 'nothing answered at http://localhost:11434/v1; start it with OLLAMA_ORIGINS=http://page.example ollama serve and try again'
    await h.catalog({ provider: 'ollama', models: [], error: advice })
    expect(text(h).replace(/\s+/g, ' ')).toContain('✗ ' + advice)
    expect(text(h)).not.toContain('No model is chosen')
  })

  test('an unknown provider is named with the list of known ones', async () => {
    const h = await createHarness(boot)
    await h.type('/provider nowhere\r')
    expect(text(h)).toContain('✗ Unknown provider nowhere. Try one of: ai-gateway, ollama, demo.')
    expect(configs(h)).toEqual([])
  })
})

describe('settings restored at boot', () => {
  test('model, mode, provider and fast from the configStore apply before the first frame', async () => {
    const h = await createHarness({ ...boot, config: { provider: 'ollama', model: 'qwen3', mode: 'ask', fast: 'off' } })
    expect(status(h)).toBe('  ask · qwen3 · localhost:11434 · /workspace · /help')
    expect(h.catalogRequests).toEqual(['ollama'])
    expect(configs(h)).toEqual([]) // restoring writes nothing back
  })

  test('an invalid stored value is ignored with a config.restore_error event, never a crash', async () => {
    const h = await createHarness({ ...boot, config: { provider: 'gone', mode: 'sometimes', fast: 'maybe' } })
    expect(h.allOf('event').map((e) => [e.event.type, e.event['id']])).toEqual([
      ['config.restore_error', 'provider'],
      ['config.restore_error', 'mode'],
      ['config.restore_error', 'fast'],
    ])
    expect(status(h)).toBe('  auto · claude-sonnet-4.5 · /workspace · /help')
  })
})

describe('leaving the offline demo', () => {
  test("a real model starts a new conversation: none of the demo's turns is sent to it", async () => {
    const h = await createHarness({ ...boot, provider: 'demo', model: 'demo' })
    await h.type('what is in this project?\r')
    await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'A greeter.' }, { type: 'finish', reason: 'stop' }])
    await h.type('/provider ollama\r')
    await h.catalog({ provider: 'ollama', models: [{ id: 'llama3.2' }] })
    expect(text(h)).toContain("A new conversation with localhost:11434: the demo's turns are not sent to it.")
    await h.type('hello\r')
    const request = h.lastOf('model_request')!.request
    expect(request).toMatchObject({ provider: 'ollama', model: 'llama3.2' })
    expect(request.messages.slice(1)).toEqual([{ role: 'user', content: 'hello' }])
  })

  test('one real provider to another keeps the conversation', async () => {
    const h = await createHarness(boot)
    await h.type('first\r')
    await modelEvents(h, h.lastOf('model_request')!.id, [{ type: 'text_delta', delta: 'ok' }, { type: 'finish', reason: 'stop' }])
    await h.type('/provider ollama\r')
    await h.catalog({ provider: 'ollama', models: [{ id: 'llama3.2' }] })
    await h.type('second\r')
    expect(h.lastOf('model_request')!.request.messages.slice(1).map((m) => m.content)).toEqual(['first', 'ok', 'second'])
  })

  test('/new resets the token counters of the activity row', async () => {
    const h = await createHarness(boot)
    await h.type('first\r')
    const id = h.lastOf('model_request')!.id
    await modelEvents(h, id, [{ type: 'text_delta', delta: 'ok' }, { type: 'usage', inputTokens: 1234, outputTokens: 56 }])
    expect(h.viewport().join('\n')).toContain('↓56')
    await modelEvents(h, id, [{ type: 'finish', reason: 'stop' }])
    await h.type('/new\r')
    await h.type('second\r')
    expect(h.viewport().join('\n')).toContain('esc to interrupt')
    expect(h.viewport().join('\n')).not.toContain('↓56')
  })
})

describe('dead ends', () => {
  test('a prompt refused for want of a model is cleared from the composer and kept in history', async () => {
    const h = await createHarness({ ...boot, provider: 'ollama', model: '' })
    await h.type('hello\r')
    expect(text(h)).toContain('No model is chosen on localhost:11434 yet: pick one with /model, then press Up to get this prompt back.')
    expect(h.allOf('model_request')).toEqual([])
    expect(composerRows(h)).toEqual(['❯ '])
    await h.type('\x1b[A')
    expect(composerRows(h)).toEqual(['❯ hello'])
  })

  test('a server that did not answer: the fix as a sentence, and a prompt refused with that fix, not a dead end', async () => {
    const h = await createHarness(boot)
    await h.type('/provider ollama\r')
    const fix = 'nothing answered at http://localhost:11434/v1; start it with OLLAMA_ORIGINS=http://localhost:5173 ollama serve and try again'
    await h.catalog({ provider: 'ollama', models: [], error: fix })
    expect(text(h)).toContain(`✗ ${fix}.`)
    await h.type('hello\r')
    expect(text(h)).toContain(`localhost:11434 has no model to answer yet: ${fix}. Then press Up to get this prompt back.`)
    expect(text(h)).not.toContain('No model is chosen')
    expect(h.allOf('model_request')).toEqual([])
    expect(composerRows(h)).toEqual(['❯ '])
    await h.type('/provider demo\r')
    expect(text(h)).not.toContain('hello/provider')
  })

  test('a model list that could not be loaded is said in sentences', async () => {
    const h = await createHarness(boot)
    await h.type('/provider ollama\r')
    await h.catalog({ provider: 'ollama', models: [], error: 'the server said 500' })
    await h.type('/model\r')
    expect(text(h)).toContain('could not be loaded: the server said 500. Set one with /model <id>.')
  })
})
