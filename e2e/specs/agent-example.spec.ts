// The headless agent example page (public/examples/agent.html): createFxAgent with indexedDb()
// durability streams a reply into a <pre>, and a reload in the middle of the reply continues the
// same turn — the model is told it was interrupted — instead of losing it.
import { test, expect } from '../support/fixtures.ts'
import type { Page } from '@playwright/test'
import { finish, roleChunk, textDelta, usage } from '../support/chunks.ts'

/** The text of the stream lines the page has stored (its IndexedDB line chunks, in order). */
function storedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'fxagent:agent-example')) return ''
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('fxagent:agent-example')
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    const store = db.transaction('sessions', 'readonly').objectStore('sessions')
    const [keys = [], values = []] = await Promise.all(
      [store.getAllKeys(), store.getAll()].map((request) => new Promise<unknown[]>((resolve, reject) => {
        request.onsuccess = () => resolve(request.result as unknown[])
        request.onerror = () => reject(request.error)
      })),
    )
    db.close()
    const chunks = keys.flatMap((key, i) => (String(key).startsWith('l:e2e-reload:') ? [[Number(String(key).split(':')[2]), values[i]] as const] : []))
    chunks.sort((a, b) => a[0] - b[0])
    return chunks
      .flatMap(([, lines]) => lines as Array<{ type: string; delta?: string }>)
      .filter((line) => line.type === 'text_delta')
      .map((line) => line.delta)
      .join('')
  })
}

test('streams a reply into the page and survives a reload mid-turn', async ({ page, mock }) => {
  await mock.script(
    { chunks: [roleChunk(), textDelta('The first half, '), textDelta('streamed before the reload. '), textDelta('never sent'), finish(), usage()], holdAfter: 3 },
    { chunks: [roleChunk(), textDelta('And the rest, after it.'), finish(), usage()] },
  )
  const url = `/examples/agent.html?${new URLSearchParams({ baseUrl: mock.baseUrl, model: 'mock-model', session: 'e2e-reload' })}`
  await page.goto(url)
  await page.fill('#prompt', 'Tell me a story')
  await page.click('button[type=submit]')
  const out = page.locator('#out')
  await expect(out).toContainText('❯ Tell me a story')
  await expect(out).toContainText('The first half, streamed before the reload.')
  await expect(page.locator('#state')).toHaveAttribute('data-state', 'running')
  expect(await mock.held()).toBe(1)
  // The page stores streamed lines within 250 ms: wait until the first half is stored.
  await expect.poll(() => storedText(page)).toBe('The first half, streamed before the reload. ')

  await page.reload()
  await expect(page.locator('#state')).toHaveAttribute('data-state', 'done: end_turn')
  await expect(out).toContainText('And the rest, after it.')
  await expect(out).not.toContainText('never sent')
  const requests = await mock.requests()
  expect(requests).toHaveLength(2)
  const resumed = requests[1]!.messages
  expect(resumed.find((m) => m.role === 'user')).toEqual({ role: 'user', content: 'Tell me a story' })
  expect(String(resumed.at(-1)!.content)).toMatch(/interrupted/)
  // The reloaded page drew the stored prompt and first half from cursor 0, then the rest.
  expect(await out.textContent()).toMatch(/❯ Tell me a story\n\nThe first half, streamed before the reload\. [\s\S]*And the rest, after it\./)
})
