/**
 * The echo hint: how many typed characters the page may draw itself before the engine's next
 * frame arrives. It must be zero whenever a key would not simply append to the draft.
 */
import { describe, expect, test } from 'vitest'
import { createHarness, type Harness } from './harness.ts'

async function hintAfter(h: Harness, keys: string): Promise<number | undefined> {
  const effects = h.engine.keys(new TextEncoder().encode(keys), 0)
  for (const e of effects) if (e.kind === 'write') await new Promise<void>((r) => h.term.write(e.bytes, r))
  const hint = effects.filter((e) => e.kind === 'echo_hint').at(-1)
  return hint?.kind === 'echo_hint' ? hint.columns : undefined
}

describe('the echo hint', () => {
  test('typing at the end of the draft leaves the rest of the row (minus the last column)', async () => {
    const h = await createHarness({ cols: 80 })
    expect(await hintAfter(h, 'hello')).toBe(80 - 1 - '❯ hello'.length)
    expect(h.cursor().x).toBe('❯ hello'.length)
  })

  test('is zero with the cursor inside the draft, so a key there is never drawn in the wrong place', async () => {
    const h = await createHarness()
    await hintAfter(h, 'hello')
    expect(await hintAfter(h, '\x1b[D')).toBe(0)
  })

  test('is zero while the approval row listens to keys', async () => {
    const h = await createHarness()
    await h.type('/mode ask\r')
    await h.type('go\r')
    await h.model(1, { type: 'tool_call_start', index: 0, id: 'c', name: 'run_command' })
    await h.model(1, { type: 'tool_call_delta', index: 0, delta: '{"command":"ls"}' })
    const effects = h.engine.modelEvent(1, { type: 'finish', reason: 'tool_calls' }, 0)
    expect(effects.filter((e) => e.kind === 'echo_hint').at(-1)).toEqual({ kind: 'echo_hint', columns: 0 })
  })

  test('is zero after the session ended', async () => {
    const h = await createHarness()
    expect(await hintAfter(h, '/exit\r')).toBe(0)
  })
})
