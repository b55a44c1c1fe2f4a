/**
 * Where an agent's sessions live. A session is one record — the engine's latest snapshot and
 * every turn's prompt and state — plus its stream lines in chunks; a save writes the record and
 * the lines since the last save together (one IndexedDB transaction), so a reload never finds a
 * snapshot that disagrees with its turns. `memory()` keeps them in the page; `indexedDb()` keeps
 * them across reloads, with a Web Lock per session so one tab writes a session at a time.
 */
import { createStore, get, getMany, setMany, type UseStore } from 'idb-keyval'
import type { FxPromptInput, FxLogLine, FxTurnResult } from '../../shared/agent-api/types.ts'
import type { SessionRecord, FxDurability } from '../../shared/agent-api/types.ts'
import type { StoredTurn, MadeWith } from '../../shared/agent-api/types.ts'
export type { StoredTurn, MadeWith } from '../../shared/agent-api/types.ts'
export type { SessionRecord, FxDurability } from '../../shared/agent-api/types.ts'

/** The optional parts of a record that every stored form keeps: the running call, what it ran with, tools' images. */
export function recordExtras(record: Pick<SessionRecord, 'running' | 'madeWith' | 'toolImages'>): Pick<SessionRecord, 'running' | 'madeWith' | 'toolImages'> {
  return {
    ...(record.running ? { running: record.running } : {}),
    ...(record.madeWith ? { madeWith: record.madeWith } : {}),
    ...(record.toolImages ? { toolImages: record.toolImages } : {}),
  }
}

/** Sessions in this page's memory: nothing outlives it. */
export function memory(): FxDurability {
  const records = new Map<string, SessionRecord>()
  const lines = new Map<string, FxLogLine[]>()
  return {
    kind: 'memory',
    load: async (id) => ({ record: records.get(id) ?? null, lines: [...(lines.get(id) ?? [])] }),
    save: async (id, record, added) => {
      records.set(id, structuredClone(record))
      const list = lines.get(id) ?? []
      list.push(...added)
      lines.set(id, list)
    },
    withLock: (_id, fn) => fn(),
  }
}

type LockManagerLike = Pick<LockManager, 'request'>

/**
 * Sessions in IndexedDB (database `fxagent:<namespace>`), with the Web Lock
 * `fxagent-session:<namespace>:<id>` held while a turn runs.
 */
export function indexedDb(options: { namespace?: string; locks?: LockManagerLike | null } = {}): FxDurability {
  const namespace = options.namespace ?? 'fxterm'
  let store: UseStore | undefined
  // Opened on first use: creating the agent touches no storage.
  const db = () => (store ??= createStore(`fxagent:${namespace}`, 'sessions'))
  const locks = options.locks !== undefined ? options.locks : ((globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks ?? null)
  return {
    kind: 'indexedDb',
    async load(id) {
      const record = (await get<SessionRecord>(`s:${id}`, db())) ?? null
      if (!record || record.chunks === 0) return { record, lines: [] }
      const keys = Array.from({ length: record.chunks }, (_, n) => `l:${id}:${n}`)
      const chunks = await getMany<FxLogLine[] | undefined>(keys, db())
      return { record, lines: chunks.flatMap((chunk) => chunk ?? []) }
    },
    async save(id, record, lines) {
      const entries: [IDBValidKey, unknown][] = []
      if (lines.length > 0) entries.push([`l:${id}:${record.chunks - 1}`, lines])
      entries.push([`s:${id}`, record])
      await setMany(entries, db())
    },
    withLock(id, fn) {
      if (!locks) return fn()
      return locks.request(`fxagent-session:${namespace}:${id}`, { mode: 'exclusive' }, fn) as Promise<Awaited<ReturnType<typeof fn>>>
    },
  }
}
