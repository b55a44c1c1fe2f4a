// What a person meets in the first minutes, as the engine draws it: the first screen says what
// to try, the provider picker says what each row will do and fits a phone, and /diff behaves the
// same for a short and a long diff.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createHarness } from './harness.ts'
import type { BootProvider } from '../../src/shared/messages/engine-frames.ts'

const hosted = ['openai', 'anthropic', 'openrouter', 'gemini', 'groq', 'mistral', 'deepseek', 'xai'].map(
  (name): BootProvider => ({ name, label: name, model: 'm', baseUrl: `https://${name}.example/v1`, key: 'key', ...(name === 'deepseek' ? { proxy: true } : {}) }),
)
const PROVIDERS: BootProvider[] = [
  { name: 'demo', label: 'demo', model: 'demo', baseUrl: '', key: 'not_needed' },
  { name: 'ai-gateway', label: 'ai-gateway', model: 'a/b', baseUrl: 'https://ai-gateway.vercel.sh/v1', key: 'account' },
  ...hosted,
  { name: 'ollama', label: 'localhost:11434', model: '', baseUrl: 'http://localhost:11434/v1', key: 'not_needed' },
  { name: 'lmstudio', label: 'localhost:1234', model: '', baseUrl: 'http://localhost:1234/v1', key: 'not_needed' },
  { name: 'llamacpp', label: 'localhost:8080', model: '', baseUrl: 'http://localhost:8080/v1', key: 'not_needed' },
]

const boot = (cols = 80, rows = 24) => createHarness({ providers: PROVIDERS, account: 'ai-gateway', signIn: false, provider: 'demo', model: 'demo', cols, rows })
const flat = (lines: string[]) => lines.join(' ').replace(/\s+/g, ' ')

describe('the first screen', () => {
  it('says what to try: two of the tour\'s prompts, !ls and /model', async () => {
    const h = await createHarness()
    const screen = flat(h.viewport())
    expect(screen).toContain('Try "what\'s in this project?", "count the cities per country", !ls, /model.')
    // The prompts are the tour's own, so the demo answers them.
    const tour = JSON.parse(readFileSync(new URL('../../public/demos/tour.json', import.meta.url), 'utf8')) as { turns: Array<{ prompt: string }> }
    const prompts = tour.turns.map((turn) => turn.prompt)
    expect(prompts).toContain("what's in this project?")
    expect(prompts).toContain('count the cities per country')
  })
})

describe('the provider picker', () => {
  it('lists this machine\'s servers and "another server" before the hosted APIs, within the first screenful', async () => {
    const h = await boot()
    await h.type('/model\r')
    const shown = h.viewport().join('\n')
    for (const name of ['ollama', 'lmstudio', 'llamacpp', 'another server']) expect(shown).toContain(name)
    expect(shown.indexOf('llamacpp')).toBeLessThan(shown.indexOf('openai'))
  })

  it('says deepseek needs a proxy, and where to read about it', async () => {
    const h = await boot(120)
    await h.type('/model\r')
    await h.type('deepseek')
    expect(flat(h.viewport())).toContain('deepseek needs a proxy: see docs/providers.md, "Hosted APIs from a browser page"')
  })

  it('on a phone\'s 44 columns each description wraps whole instead of being cut', async () => {
    const h = await boot(44, 40)
    await h.type('/model\r')
    const rows = h.viewport()
    expect(rows.every((row) => !row.includes('…') || row.includes('Choose where'))).toBe(true)
    const text = flat(rows)
    expect(text).toContain('openai paste a key, then pick a model')
    expect(text).toContain('ollama on this machine (localhost:11434)')
    expect(text).toContain('ai-gateway paste an AI Gateway key')
  })

  it('keeps the selection on screen when the list is taller than the screen', async () => {
    const h = await boot(44, 14)
    await h.type('/model\r')
    for (let i = 0; i < 13; i++) await h.type('\x1b[B')
    const rows = h.viewport()
    const selected = rows.find((row) => /^❯ \S/.test(row) && !row.startsWith('❯ /model'))
    expect(selected).toBeDefined()
    expect(selected).toContain('xai')
  })
})

describe('/diff', () => {
  it('opens a short diff in the full-screen view too, and q leaves it with nothing in the composer', async () => {
    const h = await createHarness({ fileTools: true })
    await h.type('/diff\r')
    const op = h.lastOf('workspace_op')!
    await h.workspace(op.id, { text: '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-one\n+two', files: 1, added: 1, removed: 1, scope: 'all' })
    expect(h.term.buffer.active.type).toBe('alternate')
    await h.type('q')
    expect(h.term.buffer.active.type).toBe('normal')
    expect(h.viewport().filter((row) => row.startsWith('❯')).map((row) => row.trimEnd())).toEqual(['❯'])
    expect(flat(h.viewport())).toContain('Changes since the session started · 1 file +1 −1')
  })
})
