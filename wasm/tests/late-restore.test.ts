/**
 * Start-up without waiting for the stores: a boot with `restorePending` takes keys at once, and
 * the stored settings, history, instructions and notices arrive later (IN_RESTORE). The banner
 * waits for them, and a prompt sent before they arrive goes out with them, never before.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

const providers = [
  { name: 'ai-gateway', label: 'ai-gateway', model: 'anthropic/claude-sonnet-4.5' },
  { name: 'demo', label: 'demo', model: 'demo' },
]
const boot = { provider: 'ai-gateway', model: 'anthropic/claude-sonnet-4.5', providers, restorePending: true, notices: ['The workspace is read-only.'] }
const stored = { config: { model: 'openai/gpt-5', mode: 'ask' }, history: ['list the files', 'count the lines'], instructions: 'Answer in French.', notices: ['Instructions loaded from AGENTS.md.'] }
const text = (h: Harness) => h.screen()
const status = (h: Harness) => h.viewport().filter((l) => l.trim() !== '').at(-1)

describe('a boot that does not wait for the stores', () => {
  test('the composer takes keys at once; the banner and notices wait for the stores', async () => {
    const h = await createHarness(boot)
    await h.type('hel')
    expect(h.viewport().some((l) => l === '❯ hel')).toBe(true)
    expect(text(h)).not.toContain('a coding agent in your browser tab')
    expect(text(h)).not.toContain('read-only')

    await h.restore(stored)
    const shown = text(h)
    expect(shown).toContain('openai/gpt-5') // the banner names the stored model
    expect(shown.indexOf('The workspace is read-only.')).toBeGreaterThan(shown.indexOf('openai/gpt-5'))
    expect(shown.indexOf('Instructions loaded from AGENTS.md.')).toBeGreaterThan(shown.indexOf('The workspace is read-only.'))
    expect(status(h)).toMatch(/^ {2}ask · gpt-5/)
    expect(h.viewport().some((l) => l === '❯ hel')).toBe(true) // the draft is untouched
  })

  test('Enter before the stores answer sends the prompt once they do, with the stored model and instructions', async () => {
    const h = await createHarness(boot)
    await h.type('what is here?\r')
    expect(h.allOf('model_request')).toEqual([])
    await h.restore(stored)
    const request = h.lastOf('model_request')!.request
    expect(request.model).toBe('openai/gpt-5')
    expect(request.messages[0]!.content).toContain('Answer in French.')
    expect(request.messages.at(-1)).toEqual({ role: 'user', content: 'what is here?' })
  })

  test('stored history comes before prompts sent meanwhile; Up walks all of them', async () => {
    const h = await createHarness(boot)
    await h.type('sent meanwhile\r')
    await h.restore({ ...stored, config: {} })
    await h.type('\x1b[A')
    expect(h.viewport()).toContain('❯ sent meanwhile')
    await h.type('\x1b[A')
    expect(h.viewport()).toContain('❯ count the lines')
  })

  test('a second restore, or one without a pending boot, changes nothing', async () => {
    const h = await createHarness({ ...boot, restorePending: false })
    const before = text(h)
    await h.restore(stored)
    expect(text(h)).toBe(before)
    expect(status(h)).toMatch(/^ {2}auto · claude-sonnet-4\.5/)
  })
})
