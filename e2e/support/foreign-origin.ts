// A page of another origin for the hostile embed specs: a tiny server on localhost with a port of
// its own (same site as the preview server, so the browser partitions nothing: the strongest
// case) that frames embed.html and drives it the way an attacker's page would.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Frame, Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'

export type ForeignOrigin = { origin: string; close(): Promise<void> }

/**
 * `/frame?src=<url>`: a page that frames `src` (id `fx`), records every message it hears in
 * `window.heard`, and sends with `window.send(message)`. `/sibling`: an empty page of this origin.
 */
const FRAME_PAGE = `<!doctype html><meta charset="utf-8"><title>foreign</title>
<iframe id="fx" style="width:900px;height:500px"></iframe>
<iframe id="sibling" src="/sibling" style="width:10px;height:10px"></iframe>
<script>
  window.heard = []
  addEventListener('message', (event) => heard.push(event.data))
  document.getElementById('fx').src = new URLSearchParams(location.search).get('src')
  window.send = (message) => document.getElementById('fx').contentWindow.postMessage({ fxterm: 1, ...message }, '*')
</script>`

export async function startForeignOrigin(): Promise<ForeignOrigin> {
  const server = http.createServer((request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8')
    response.end(request.url?.startsWith('/frame') ? FRAME_PAGE : '<!doctype html><title>sibling</title>')
  })
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://localhost:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

type FxWindow = Window & { fxterm?: { term: Terminal; runtime: { prompt(text: string): void } }; heard: unknown[]; seen?: unknown[] }

/** The frame (of `page`) whose URL contains `part`. */
export async function frameOf(page: Page, part: string): Promise<Frame> {
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes(part))
    if (frame) return frame
    await page.waitForEvent('frameattached')
  }
}

/** The embedded terminal's whole buffer. */
export function frameScreen(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const term = (window as unknown as FxWindow).fxterm?.term
    if (!term) return ''
    const lines: string[] = []
    for (let i = 0; i < term.buffer.active.length; i++) lines.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '')
    return lines.join('\n')
  })
}

/** Starts recording, inside the embed, every message it receives (after its own listener ran). */
export function recordDeliveries(frame: Frame): Promise<void> {
  return frame.evaluate(() => {
    const w = window as unknown as FxWindow
    w.seen = []
    addEventListener('message', (event) => w.seen!.push(event.data))
  })
}

/** How many messages the embed has received since `recordDeliveries`. */
export function deliveries(frame: Frame): Promise<number> {
  return frame.evaluate(() => (window as unknown as FxWindow).seen?.length ?? 0)
}

/** What the foreign page heard from the embed. */
export function heard(page: Page): Promise<unknown[]> {
  return page.evaluate(() => (window as unknown as FxWindow).heard)
}

/** Every record of the IndexedDB database `name` on this page's origin (null: no such database). */
export function databaseRecords(page: Page | Frame, name: string): Promise<Record<string, unknown> | null> {
  return page.evaluate(async (db) => {
    const names = (await indexedDB.databases()).map((d) => d.name)
    if (!names.includes(db)) return null
    const open = indexedDB.open(db)
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    try {
      if (!database.objectStoreNames.contains('records')) return {}
      const store = database.transaction('records').objectStore('records')
      const [keys, values] = await Promise.all(
        [store.getAllKeys(), store.getAll()].map((r) => new Promise<unknown[]>((resolve, reject) => ((r.onsuccess = () => resolve(r.result as unknown[])), (r.onerror = () => reject(r.error))))),
      )
      const out: Record<string, unknown> = {}
      keys!.forEach((key, i) => (out[JSON.stringify(key)] = values![i]))
      return out
    } finally {
      database.close()
    }
  }, name)
}
