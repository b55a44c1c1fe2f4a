import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { idbConfigStore } from '../stores/idb-config-store.ts'
import { idbPromptHistoryStore } from '../stores/idb-prompt-history-store.ts'
import { idbSessionStore } from '../stores/idb-session-store.ts'
import { freshIndexedDB, rawEntries, sameBytes, utf8 } from '../../../test/support/idb.ts'
import { PART_BYTES } from '../stores/session-parts.ts'
import { idbSessionStoreOffThread, sessionStoreServedBy } from '../../page/stores/idb-session-store-off-thread.ts'
import * as Comlink from 'comlink'
import { READ_AT_START, READ_AT_START_ANSWER, SERVE_SESSIONS, startReadsInName, startReadsWorkerName, type StartReadsAnswerMessage, type StartReadsRequest } from '../../shared/messages/start-reads-message.ts'

// The module holds the worker's one read: a fresh copy per test.
let reads: typeof import('./worker-start-reads.ts')
beforeEach(async () => {
  vi.resetModules()
  reads = await import('./worker-start-reads.ts')
})

const request = (namespace: string): StartReadsRequest => ({ type: READ_AT_START, namespace, configIds: ['model', 'mode'], historyRoot: '/workspace', historyLimit: 2 })

/** A worker started with `request` in its name (null: a plain name); `answer` is what it posts. */
function worker(indexedDB: IDBFactory, request: StartReadsRequest | null) {
  let answer: (message: StartReadsAnswerMessage) => void = () => {}
  const posted = new Promise<StartReadsAnswerMessage>((resolve) => (answer = resolve))
  const name = request ? startReadsWorkerName(request) : 'fxterm-engine'
  reads.startReadsNamed({ postMessage: (message) => answer(message) }, { name, indexedDB })
  return posted.then((message) => (expect(message.type).toBe(READ_AT_START_ANSWER), message.answer))
}

describe('start-up reads in the engine worker', () => {
  it('reads the newest session, the settings and the history of the namespace asked for; the session bytes are taken once', async () => {
    const indexedDB = freshIndexedDB()
    let clock = 1
    const sessions = idbSessionStore({ namespace: 'docs', indexedDB, now: () => clock++ })
    await sessions.commit('older', utf8('older bytes'), undefined)
    const { revision } = await sessions.commit('newest', utf8('newest bytes'), undefined)
    await idbSessionStore({ namespace: 'other', indexedDB, now: () => 99 }).commit('elsewhere', utf8('x'), undefined)
    await idbConfigStore({ namespace: 'docs', indexedDB }).set('model', 'gpt-x')
    const history = idbPromptHistoryStore({ namespace: 'docs', indexedDB })
    for (const [i, prompt] of ['one', 'two', 'three'].entries()) await history.append('/workspace', prompt, i)
    expect(await worker(indexedDB, request('docs'))).toEqual({ session: { found: { id: 'newest', revision } }, config: { model: 'gpt-x' }, history: ['two', 'three'] })
    expect(await reads.takeStartSession('older')).toBeNull()
    expect(await reads.takeStartSession('newest')).toEqual({ bytes: utf8('newest bytes'), engine: null }) // no wasmUrl: nothing decoded
    expect(await reads.takeStartSession('newest')).toBeNull()
  })

  it('answers found: null, no settings and no history for a first visit', async () => {
    expect(await worker(freshIndexedDB(), request('fxterm'))).toEqual({ session: { found: null }, config: {}, history: [] })
  })

  it('given engine.wasm, an engine decodes the session before it is booted, and restores it after', async () => {
    const wasm = readFileSync(fileURLToPath(new URL('../../../public/engine.wasm', import.meta.url)))
    const fetched: string[] = []
    vi.stubGlobal('fetch', async (url: string) => (fetched.push(url), new Response(wasm, { headers: { 'content-type': 'application/wasm' } })))
    try {
      const indexedDB = freshIndexedDB()
      const bytes = snapshot('s9', 'Read ahead', 'what was said before')
      await idbSessionStore({ namespace: 'fxterm', indexedDB }).commit('s9', bytes, undefined)
      await worker(indexedDB, { ...request('fxterm'), wasmUrl: 'https://app.example/engine.wasm' })
      const read = await reads.takeStartSession('s9')
      expect([fetched, read?.bytes]).toEqual([['https://app.example/engine.wasm'], bytes])
      read!.engine!.boot({ cols: 80, rows: 24, seed: 1, provider: 'demo', model: 'demo', tools: false, cwd: '/', notices: [], args: [], sessions: true }, 1)
      const shown = read!.engine!.restoreDecoded(false, 2).flatMap((e) => (e.kind === 'write' ? [new TextDecoder().decode(e.bytes)] : [])).join('')
      expect(shown).toContain('what was said before')
      expect(shown).toContain('Session resumed: Read ahead')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('starts the reads the worker\'s name asks for as it runs, and posts the answer', async () => {
    const indexedDB = freshIndexedDB()
    await idbConfigStore({ namespace: 'docs', indexedDB }).set('mode', 'plan')
    const opened: string[] = []
    const watched = new Proxy(indexedDB, { get: (target, key) => (key === 'open' ? (name: string, version?: number) => (opened.push(name), target.open(name, version)) : Reflect.get(target, key)) })
    const answer = worker(watched, request('docs'))
    expect(opened.sort()).toEqual(['docs-config', 'docs-history', 'docs-sessions']) // at once, not a task later
    expect(await answer).toEqual({ session: { found: null }, config: { mode: 'plan' }, history: [] })
  })

  it('reads nothing when the worker\'s name asks for nothing', async () => {
    const opened: string[] = []
    const watched = { open: (name: string) => (opened.push(name), freshIndexedDB().open(name)) } as unknown as IDBFactory
    let posted = false
    reads.startReadsNamed({ postMessage: () => (posted = true) }, { name: 'fxterm-engine', indexedDB: watched })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect([opened, posted]).toEqual([[], false])
  })

  it('takes a request from a name only in the form the page writes', () => {
    expect(startReadsInName(startReadsWorkerName(request('docs')))).toEqual(request('docs'))
    for (const name of ['fxterm-engine', 'fxterm-engine {not json', 'other {"type":"fxterm:read-at-start","namespace":"x"}', 'fxterm-engine {"type":"other","namespace":"x"}', 'fxterm-engine null']) {
      expect(startReadsInName(name)).toBeNull()
    }
  })

  it('the session store it serves the page compares the first commit with the session read at start-up: only the changed part is written', async () => {
    const indexedDB = freshIndexedDB()
    const big = Uint8Array.from({ length: 5 * PART_BYTES }, (_, i) => (i * 7) % 256)
    const { revision } = await idbSessionStore({ namespace: 'fxterm', indexedDB }).commit('s1', big, undefined)
    const before = await partRecords(indexedDB)
    expect((await worker(indexedDB, request('fxterm'))).session).toEqual({ found: { id: 's1', revision } })
    expect(sameBytes((await reads.takeStartSession('s1'))!.bytes, big)).toBe(true)

    // The page connects as it does to the engine worker: a port in a SERVE_SESSIONS message.
    const { sessionStoreApi } = await import('../stores/session-store-api.ts') // this test's module copies, as reads
    const served: string[] = []
    const engineWorker = {
      postMessage(message: { type: string; port: MessagePort }, transfer: Transferable[]) {
        served.push(message.type)
        expect(transfer).toEqual([message.port])
        Comlink.expose(sessionStoreApi({ shared: true, indexedDB }), message.port)
      },
    }
    const store = idbSessionStoreOffThread({ namespace: 'fxterm', indexedDB, connect: sessionStoreServedBy(engineWorker), connectNow: true, warmNewest: true })
    const renamed = big.slice()
    renamed[10] = 255 // a rename: the header changes
    const { revision: next } = await store.commit('s1', renamed, revision)
    const after = await partRecords(indexedDB)
    expect(served).toEqual([SERVE_SESSIONS])
    // The first part's record is replaced by a new one; the other four are the same, untouched.
    expect(after.map(([key]) => key)).toEqual([1, 2, 3, 4, 5])
    expect(after.slice(0, 4).every(([, bytes], i) => sameBytes(bytes, before[i + 1]![1]))).toBe(true)
    const stored = await idbSessionStore({ namespace: 'fxterm', indexedDB }).load('s1')
    expect([stored?.revision, sameBytes(stored!.bytes, renamed)]).toEqual([next, true])
  })

  it('answers null for each read that fails, so the page reads those itself', async () => {
    const blocked = { open: () => { throw new Error('storage is blocked') } } as unknown as IDBFactory
    expect(await worker(blocked, request('fxterm'))).toEqual({ session: null, config: null, history: null })
  })
})

/** A version-2 snapshot of one turn (the header the engine writes; see wasm/engine/session/snapshot.ts). */
function snapshot(id: string, title: string, prompt: string): Uint8Array {
  const meta = new TextEncoder().encode(JSON.stringify({ id, title, createdMs: 1, updatedMs: 1, turns: 1, firstPrompt: prompt }))
  const body = new TextEncoder().encode(JSON.stringify({ model: '', provider: '', mode: 'auto', fast: false, messages: [{ role: 'user', content: prompt }, { role: 'assistant', content: 'Noted.' }], archived: [], turn: { active: false, runningCallId: '' } }))
  const out = new Uint8Array(12 + meta.length + body.length)
  out.set(new TextEncoder().encode('FXSN'))
  new DataView(out.buffer).setUint32(4, 2, true)
  new DataView(out.buffer).setUint32(8, meta.length, true)
  out.set(meta, 12)
  out.set(body, 12 + meta.length)
  return out
}

async function partRecords(indexedDB: IDBFactory): Promise<Array<[number, Uint8Array]>> {
  const entries = await rawEntries(indexedDB, 'fxterm-sessions')
  return entries.filter(([key]) => (key as unknown[])[0] === 'part').map(([key, value]) => [(key as [string, string, number])[2], value as Uint8Array])
}

