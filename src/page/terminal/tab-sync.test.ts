import { afterEach, describe, expect, it } from 'vitest'
import { asTabMessage, createTabSync, type TabMessage, type TabSync } from './tab-sync.ts'

const opened: TabSync[] = []
afterEach(() => {
  for (const sync of opened.splice(0)) sync.close()
})

function tab(namespace: string): { sync: TabSync; received: TabMessage[] } {
  const sync = createTabSync(namespace)
  opened.push(sync)
  const received: TabMessage[] = []
  sync.onMessage((message) => received.push(message))
  return { sync, received }
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 0))
  expect(check()).toBe(true)
}

describe('tab sync', () => {
  it('tells the other tabs of the namespace, not itself and not another namespace', async () => {
    const a = tab('ns')
    const b = tab('ns')
    const other = tab('other')
    a.sync.post({ type: 'config', id: 'mode', value: 'ask' })
    a.sync.post({ type: 'sessions_changed' })
    a.sync.post({ type: 'signed_out' })
    await until(() => b.received.length === 3)
    expect([a.received, b.received, other.received]).toEqual([
      [],
      [{ type: 'config', id: 'mode', value: 'ask' }, { type: 'sessions_changed' }, { type: 'signed_out' }],
      [],
    ])
  })

  it('ignores messages it does not know (another version may share the channel)', () => {
    expect([
      asTabMessage(null),
      asTabMessage('config'),
      asTabMessage({ type: 'config', id: 'mode' }),
      asTabMessage({ type: 'config', id: 'mode', value: 1 }),
      asTabMessage({ type: 'reload' }),
      asTabMessage({ type: 'signed_out', extra: true }),
    ]).toEqual([null, null, null, null, null, { type: 'signed_out' }])
  })

  it('is silent where BroadcastChannel is missing', () => {
    const sync = createTabSync('ns', null)
    expect(() => sync.post({ type: 'sessions_changed' })).not.toThrow()
    expect(typeof sync.onMessage(() => {})).toBe('function')
  })
})
