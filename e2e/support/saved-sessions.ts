// The sessions in the page's IndexedDB, read raw (not through fxterm's store): what a person
// would find saved. Snapshot bytes: "FXSN" · u16 version · u16 0 · u32 metaLen · meta · body.
import type { Page } from '@playwright/test'

export type SavedSession = { id: string; title: string; turns: number; prompts: string[]; active: boolean }

/** Every saved session in `fxterm-sessions`, sorted by title. */
export function savedSessions(page: Page): Promise<SavedSession[]> {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((db) => db.name === 'fxterm-sessions')) return []
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('fxterm-sessions')
      open.onsuccess = () => resolve(open.result)
      open.onerror = () => reject(open.error)
    })
    const records = await new Promise<Array<{ bytes?: Uint8Array }>>((resolve, reject) => {
      const request = db.transaction('records', 'readonly').objectStore('records').getAll(IDBKeyRange.bound(['data'], ['data', []]))
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    db.close()
    const text = new TextDecoder()
    return records
      .flatMap(({ bytes }) => {
        if (!(bytes instanceof Uint8Array)) return []
        const metaLen = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true)
        const meta = JSON.parse(text.decode(bytes.subarray(12, 12 + metaLen))) as { id: string; title: string; turns: number }
        const body = JSON.parse(text.decode(bytes.subarray(12 + metaLen))) as {
          messages: Array<{ role: string; content: string }>
          turn?: { active?: boolean }
        }
        const prompts = body.messages.filter((m) => m.role === 'user').map((m) => m.content)
        return [{ id: meta.id, title: meta.title, turns: meta.turns, prompts, active: body.turn?.active === true }]
      })
      .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
  })
}
