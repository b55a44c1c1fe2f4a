/**
 * The engine worker reads what start-up restores — the session a reload resumes, the settings,
 * the prompt history — as soon as it starts, when the page asks in the worker's name
 * (spawnEngineWorkerReading). The page's thread is busy opening the terminal then, and IndexedDB
 * answers a read on the thread that asked: read on the page, those answers waited for that thread, and the 4 MB of a long session
 * were deserialized there and copied again to this worker. Here the session's bytes arrive where
 * the engine needs them; the page learns only its id and revision (for its lock and its next
 * commit), with the settings and the history, in a message.
 */
import { idbConfigStore } from '../stores/idb-config-store.ts'
import { idbPromptHistoryStore } from '../stores/idb-prompt-history-store.ts'
import { sharedSessionStore } from '../stores/shared-session-store.ts'
import { decodeAhead } from './worker-decode-ahead.ts'
import { preloadEngine } from './preload-engine.ts'
import type { EngineInstance } from './engine-instance.ts'
import { markPhase } from '../../shared/start-up-timeline.ts'
import { READ_AT_START_ANSWER, startReadsInName, type StartReadsAnswer, type StartReadsAnswerMessage, type StartReadsRequest } from '../../shared/messages/start-reads-message.ts'

/** The session read here: its bytes, and an engine that decoded them when the page gave wasmUrl. */
type Held = { id: string; bytes: Uint8Array; engine: Promise<EngineInstance | null> }
let held: Held | null = null

/**
 * Reads what the request in the worker's `name` asks for (start-reads-message.ts), at once, and
 * posts the answer on `scope`; a worker whose name carries no request reads nothing.
 */
export function startReadsNamed(scope: { postMessage(message: StartReadsAnswerMessage, transfer: Transferable[]): void }, options: { name: string; indexedDB?: IDBFactory }): void {
  const request = startReadsInName(options.name)
  if (!request) return
  markPhase('worker-reads', 'start')
  void readAtStart(request, options.indexedDB).then((answer) => {
    markPhase('worker-reads', 'end')
    scope.postMessage({ type: READ_AT_START_ANSWER, answer }, [])
  })
}

/** Every read at once; a failed one answers null (the page reads that one itself). */
export async function readAtStart(request: StartReadsRequest, indexedDB?: IDBFactory): Promise<StartReadsAnswer> {
  const idb = { namespace: request.namespace, ...(indexedDB ? { indexedDB } : {}) }
  const settled = <T,>(read: () => Promise<T>) => read().catch(() => null)
  // Compiled alongside the reads, for an engine to decode the session before the page boots it.
  const module = request.wasmUrl ? preloadEngine(request.wasmUrl) : null
  module?.catch(() => {})
  const [session, config, history] = await Promise.all([
    settled(() => readNewestSession(idb, module)),
    settled(async () => {
      const store = idbConfigStore(idb)
      const values = await Promise.all(request.configIds.map((id) => store.get(id)))
      const config: Record<string, string> = {}
      request.configIds.forEach((id, i) => typeof values[i] === 'string' && (config[id] = values[i]!))
      return config
    }),
    settled(() => idbPromptHistoryStore(idb).load(request.historyRoot, request.historyLimit)),
  ])
  return { session, config, history }
}

async function readNewestSession(idb: { namespace: string; indexedDB?: IDBFactory }, module: Promise<WebAssembly.Module> | null): Promise<NonNullable<StartReadsAnswer['session']>> {
  // The store this worker serves the page its sessions from, if the page asks (serveSessionStore):
  // warmed up with the session read here, its first commit writes only what changed, and the
  // page's own warm-up request (warmNewest) finds this read done.
  const newest = await sharedSessionStore(idb).warmNewest()
  if (!newest) return { found: null }
  held = { id: newest.id, bytes: newest.bytes, engine: module ? decodeAhead(module, newest.bytes) : Promise.resolve(null) }
  return { found: { id: newest.id, revision: newest.revision } }
}

/**
 * Session `id` as read here, once: its bytes, and the engine that decoded them (null when none
 * did). Null when this worker does not hold that session. The bytes are also what the session
 * store's next commit compares with, so they are never changed (nor moved away).
 */
export async function takeStartSession(id: string): Promise<{ bytes: Uint8Array; engine: EngineInstance | null } | null> {
  const read = held
  if (!read || read.id !== id) return null
  held = null
  return { bytes: read.bytes, engine: await read.engine }
}
