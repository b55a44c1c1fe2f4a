import { describe, expect, it } from 'vitest'
import { idbSessionStore } from '../stores/idb-session-store.ts'
import { freshIndexedDB } from '../../../test/support/idb.ts'
import { encodeSnapshot } from '../../shared/stores/snapshot-header.ts'
import { createSessionWrites } from './worker-session-writes.ts'
import type { CommitNote } from '../stores/session-commits.ts'
import type { SessionEvent } from '../../shared/messages/engine-frames.ts'
import type { CommitTake } from '../../shared/messages/worker-api.ts'

function snap(id: string, body = 'v1'): Uint8Array {
  return encodeSnapshot({ id, title: `Title of ${id}`, createdMs: 1, updatedMs: 2, turns: 1, firstPrompt: 'first' }, JSON.stringify({ body }))
}

function bodyOf(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined
  const text = new TextDecoder().decode(bytes)
  return (JSON.parse(text.slice(text.indexOf('{"body"'))) as { body: string }).body
}

/** The page as the worker sees it: what reached it, by which call. */
function fakePage() {
  const sentToPage: string[] = []
  const notes: CommitNote[] = []
  const taken: CommitTake[] = []
  const events: Array<Record<string, unknown>> = []
  const page = {
    sessionTaken: async (take: CommitTake) => void taken.push(take),
    sessionCommit: async (bytes: Uint8Array): Promise<SessionEvent> => {
      sentToPage.push(bodyOf(bytes)!)
      return { type: 'commit_ok' }
    },
    sessionWritten: async (note: CommitNote) => void notes.push(note),
    event: async (event: { type: string } & Record<string, unknown>) => void events.push(event),
  }
  return { page, sentToPage, notes, taken, events }
}

describe('the engine worker writes fxterm\'s own session store', () => {
  it('stores the snapshot itself and tells the page only how it went', async () => {
    const indexedDB = freshIndexedDB()
    const { page, sentToPage, notes } = fakePage()
    const writes = createSessionWrites(page, true, indexedDB)
    writes.decide({ namespace: 'test' })
    expect(await writes.commit(snap('s1'))).toEqual({ type: 'commit_ok' })
    expect(await writes.commit(snap('s1', 'v2'))).toEqual({ type: 'commit_ok' })
    const stored = await idbSessionStore({ namespace: 'test', indexedDB }).load('s1')
    expect(bodyOf(stored?.bytes)).toBe('v2')
    expect(sentToPage).toEqual([])
    expect(notes.map(({ id, outcome, created }) => ({ id, outcome, created }))).toEqual([
      { id: 's1', outcome: 'ok', created: true },
      { id: 's1', outcome: 'ok', created: false },
    ])
    expect(notes.every((note) => note.endedAt >= note.startedAt && note.bytes === snap('s1').byteLength)).toBe(true)
  })

  it('tells the page of a new session as its commit is taken, before the write has ended', async () => {
    const { page, notes, taken } = fakePage()
    const writes = createSessionWrites(page, true, freshIndexedDB())
    writes.decide({ namespace: 'test' })
    const first = writes.commit(snap('s1'))
    // A command the engine asks for next is told after this: the page switches files first.
    await Promise.resolve()
    await Promise.resolve()
    expect({ taken, notes: notes.length }).toEqual({ taken: [{ id: 's1', forked: false, seq: 1 }], notes: 0 })
    await first
    await writes.commit(snap('s2'))
    expect(taken).toEqual([{ id: 's1', forked: false, seq: 1 }, { id: 's2', forked: false, seq: 2 }])
    expect(notes.map(({ id, seq }) => ({ id, seq }))).toEqual([{ id: 's1', seq: 1 }, { id: 's2', seq: 2 }])
  })

  it('holds a commit until the page says where sessions go: to the page when its store is not fxterm\'s', async () => {
    const { page, sentToPage, notes } = fakePage()
    const writes = createSessionWrites(page, true, freshIndexedDB())
    const answer = writes.commit(snap('s1', 'early'))
    writes.decide(null)
    expect(await answer).toEqual({ type: 'commit_ok' })
    expect([sentToPage, notes]).toEqual([['early'], []])
  })

  it('sends every commit to the page when it was not started with sessionsHere', async () => {
    const { page, sentToPage } = fakePage()
    const writes = createSessionWrites(page, false, freshIndexedDB())
    await writes.commit(snap('s1'))
    expect(sentToPage).toEqual(['v1'])
  })

  it('passes the revision a resume read, and answers conflict when another tab wrote the session since', async () => {
    const indexedDB = freshIndexedDB()
    const other = idbSessionStore({ namespace: 'test', indexedDB })
    const { revision } = await other.commit('s1', snap('s1', 'read'), undefined)
    const { page, notes } = fakePage()
    const writes = createSessionWrites(page, true, indexedDB)
    writes.opened('s1', revision)
    writes.decide({ namespace: 'test' })
    expect(await writes.commit(snap('s1', 'mine'))).toEqual({ type: 'commit_ok' })
    const mine = (await other.load('s1'))!
    await other.commit('s1', snap('s1', 'elsewhere'), mine.revision)
    expect(await writes.commit(snap('s1', 'stale'))).toEqual({ type: 'conflict' })
    expect(bodyOf((await other.load('s1'))?.bytes)).toBe('elsewhere')
    expect(notes.map((note) => note.outcome)).toEqual(['ok', 'conflict'])
  })

  it('reports a snapshot without a readable header as an event and writes nothing', async () => {
    const { page, events, notes } = fakePage()
    const writes = createSessionWrites(page, true, freshIndexedDB())
    writes.decide({ namespace: 'test' })
    expect((await writes.commit(new Uint8Array([1, 2, 3]))).type).toBe('commit_error')
    expect(events.map((event) => event['type'])).toEqual(['session.commit_error'])
    expect(notes).toEqual([])
  })
})
