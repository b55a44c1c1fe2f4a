// What the page keeps in IndexedDB, read raw (not through fxterm's stores): what a person would
// find saved. Session snapshots: "FXSN" · u16 version · u16 0 · u32 metaLen · meta · body.
import type { Page } from '@playwright/test'

/** `runningCallId`: the tool call whose command was running when the snapshot was saved ('' when none). */
export type SavedSession = { id: string; title: string; turns: number; prompts: string[]; active: boolean; runningCallId: string }

type Query = { what: 'sessions' } | { what: 'parts' } | { what: 'prompts'; namespace?: string } | { what: 'setting'; id: string }

/** In the page: one read of the database the query is about (null when it does not exist yet). */
async function readInPage(query: Query): Promise<unknown> {
  const name = query.what === 'sessions' || query.what === 'parts' ? 'fxterm-sessions' : query.what === 'prompts' ? `${query.namespace ?? 'fxterm'}-history` : 'fxterm-config'
  if (!(await indexedDB.databases()).some((db) => db.name === name)) return null
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name)
    open.onsuccess = () => resolve(open.result)
    open.onerror = () => reject(open.error)
  })
  const answer = <T,>(request: IDBRequest<T>) =>
    new Promise<T>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
  try {
    const store = db.transaction('records', 'readonly').objectStore('records')
    if (query.what === 'setting') {
      const value = await answer(store.get(query.id))
      return typeof value === 'string' ? value : null
    }
    if (query.what === 'prompts') {
      const records = (await answer(store.getAll())) as Array<{ value?: unknown }>
      return records.flatMap((record) => (typeof record.value === 'string' ? [record.value] : []))
    }
    if (query.what === 'parts') {
      const records = (await answer(store.getAll(IDBKeyRange.bound(['data'], ['data', []])))) as Array<{ parts?: Array<{ key: number; length: number }> }>
      return records.map((record) => (record.parts ?? []).map(({ key, length }) => [key, length]))
    }
    // A session is stored in parts (['part', id, n], listed in order by its ['data', id] record),
    // or whole in the data record as sessions were before parts.
    const records = (await answer(store.getAll(IDBKeyRange.bound(['data'], ['data', []])))) as Array<{ bytes?: Uint8Array; parts?: Array<{ key: number }> }>
    const parts = new Map<string, unknown>()
    const partKeys = (await answer(store.getAllKeys(IDBKeyRange.bound(['part'], ['part', []])))) as Array<[string, string, number]>
    const partValues = await answer(store.getAll(IDBKeyRange.bound(['part'], ['part', []])))
    partKeys.forEach(([, id, n], i) => parts.set(`${id}/${n}`, partValues[i]))
    const keys = (await answer(store.getAllKeys(IDBKeyRange.bound(['data'], ['data', []])))) as Array<[string, string]>
    const whole = (record: (typeof records)[number], i: number): Uint8Array | undefined => {
      if (record.bytes instanceof Uint8Array || !record.parts) return record.bytes
      const pieces = record.parts.map((part) => parts.get(`${keys[i]![1]}/${part.key}`) as Uint8Array)
      const out = new Uint8Array(pieces.reduce((n, piece) => n + piece.byteLength, 0))
      pieces.reduce((at, piece) => (out.set(piece, at), at + piece.byteLength), 0)
      return out
    }
    const text = new TextDecoder()
    return records
      .map(whole)
      .flatMap((bytes) => {
        if (!(bytes instanceof Uint8Array)) return []
        const metaLen = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true)
        const meta = JSON.parse(text.decode(bytes.subarray(12, 12 + metaLen))) as { id: string; title: string; turns: number }
        const body = JSON.parse(text.decode(bytes.subarray(12 + metaLen))) as { messages: Array<{ role: string; content: string }>; turn?: { active?: boolean; runningCallId?: string } }
        const prompts = body.messages.filter((m) => m.role === 'user').map((m) => m.content)
        return [{ id: meta.id, title: meta.title, turns: meta.turns, prompts, active: body.turn?.active === true, runningCallId: body.turn?.runningCallId ?? '' }]
      })
      .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
  } finally {
    db.close()
  }
}

/** Every saved session in `fxterm-sessions`, sorted by title. */
export async function savedSessions(page: Page): Promise<SavedSession[]> {
  return ((await page.evaluate(readInPage, { what: 'sessions' } as Query)) as SavedSession[] | null) ?? []
}

/** Each saved session's parts in order, as its data record lists them: [part number, length]. */
export async function savedParts(page: Page): Promise<Array<Array<[number, number]>>> {
  return ((await page.evaluate(readInPage, { what: 'parts' } as Query)) as Array<Array<[number, number]>> | null) ?? []
}

/** The prompts in the history database (any workspace root), oldest first. */
export async function savedPrompts(page: Page, namespace = 'fxterm'): Promise<string[]> {
  return ((await page.evaluate(readInPage, { what: 'prompts', namespace } as Query)) as string[] | null) ?? []
}

/** A setting as the config database holds it, or null. */
export async function savedSetting(page: Page, id: string): Promise<string | null> {
  return (await page.evaluate(readInPage, { what: 'setting', id } as Query)) as string | null
}
