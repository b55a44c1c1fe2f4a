import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { idbSessionStore } from '../../engine-worker/stores/idb-session-store.ts'
import { memorySessionStore } from '../stores/memory-stores.ts'
import { freshIndexedDB, utf8 } from '../../../test/support/idb.ts'
import type { AsyncSessionStore, SessionStore } from '../../shared/stores/types.ts'
import type { SessionEvent } from '../../shared/messages/engine-frames.ts'
import type { CommitNote } from '../../engine-worker/stores/session-commits.ts'
import { createSessionBridge, resumeArgument, type SessionBridgeOptions } from './session-bridge.ts'
import { encodeSnapshot } from '../../shared/stores/snapshot-header.ts'
import { fakeLocks } from '../../../test/support/locks.ts'

afterEach(() => {
  vi.useRealTimers()
})

/** Snapshot bytes for session `id`; `body` tells versions of one session apart. */
function snap(id: string, body = 'v1', turns = 1): Uint8Array {
  return encodeSnapshot({ id, title: `Title of ${id}`, createdMs: 1, updatedMs: 2, turns, firstPrompt: `first prompt of ${id}` }, JSON.stringify({ body }))
}

/** The `body` marker of stored snapshot bytes. */
function bodyOf(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined
  const text = new TextDecoder().decode(bytes)
  return (JSON.parse(text.slice(text.indexOf('{"body"'))) as { body: string }).body
}

type Call = { id: string; body: string | undefined; expected: string | undefined }

/** `store` recording each commit (id, body, expected revision) and how many loads it served. */
function spy(store: AsyncSessionStore) {
  const commits: Call[] = []
  let loads = 0
  const spied: AsyncSessionStore = {
    load: (id) => {
      loads++
      return store.load(id)
    },
    commit: (id, bytes, expected) => {
      commits.push({ id, body: bodyOf(bytes), expected })
      return store.commit(id, bytes, expected)
    },
    list: () => store.list(),
    remove: (id) => store.remove(id),
  }
  return { store: spied, commits, loads: () => loads }
}

/** A store whose commits wait until `release()`; the rest goes straight to `inner`. */
function gated(inner: AsyncSessionStore) {
  const gates: Array<() => void> = []
  const store: AsyncSessionStore = {
    ...inner,
    commit: async (id, bytes, expected) => {
      await new Promise<void>((open) => gates.push(open))
      return inner.commit(id, bytes, expected)
    },
  }
  return {
    store,
    waiting: () => gates.length,
    release: () => gates.shift()?.(),
  }
}

function bridgeOver(store: SessionStore, more: Partial<SessionBridgeOptions> = {}) {
  const reports: Array<{ event: { type: string } & Record<string, unknown>; notice?: string }> = []
  let listChanges = 0
  const bridge = createSessionBridge({
    store,
    namespace: 'test',
    locks: null,
    report: (event, notice) => reports.push(notice === undefined ? { event } : { event, notice }),
    onListChanged: () => listChanges++,
    ...more,
  })
  return { bridge, reports, listChanges: () => listChanges }
}

/** Turns the event loop until `check` holds (no fixed sleeps, and no timer: it works on a fake clock too). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1000 && !(await check()); i++) await new Promise((resolve) => setImmediate(resolve))
  expect(await check()).toBe(true)
}

/** The store's 20 ms (`timeoutMs` below) on a fake clock: only the commit the store holds back outlives them. */
function fakeStoreClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  return async <T>(held: Promise<T>): Promise<T> => {
    await vi.advanceTimersByTimeAsync(20)
    return held
  }
}

describe('session bridge commits', () => {
  it('passes undefined for the first commit of a session, then the revision the last one returned', async () => {
    const { store, commits } = spy(idbSessionStore({ indexedDB: freshIndexedDB() }))
    const { bridge, listChanges } = bridgeOver(store)
    const events = [await bridge.commit(snap('s1', 'a')), await bridge.commit(snap('s1', 'b')), await bridge.commit(snap('s2', 'a'))]
    const first = (await store.load('s1'))!
    expect(events).toEqual([{ type: 'commit_ok' }, { type: 'commit_ok' }, { type: 'commit_ok' }])
    expect(commits).toEqual([
      { id: 's1', body: 'a', expected: undefined },
      { id: 's1', body: 'b', expected: commits[1]!.expected },
      { id: 's2', body: 'a', expected: undefined },
    ])
    expect(commits[1]!.expected).toEqual(expect.any(String))
    expect(bodyOf(first.bytes)).toBe('b')
    // Two sessions were created; the second commit of s1 only updated one.
    expect(listChanges()).toBe(2)
  })

  it('commits a session it opened with the revision it loaded', async () => {
    const backing = idbSessionStore({ indexedDB: freshIndexedDB() })
    const { revision } = await backing.commit('s1', snap('s1', 'saved'), undefined)
    const { store, commits } = spy(backing)
    const { bridge } = bridgeOver(store)
    const opened = await bridge.open('s1')
    expect([bodyOf(opened?.bytes), opened?.readOnly]).toEqual(['saved', false])
    expect(await bridge.commit(snap('s1', 'next'))).toEqual({ type: 'commit_ok' })
    expect(commits).toEqual([{ id: 's1', body: 'next', expected: revision }])
  })

  it('answers a stale commit with conflict and leaves the stored session as the other tab wrote it', async () => {
    const store = idbSessionStore({ indexedDB: freshIndexedDB() })
    const tabA = bridgeOver(store).bridge
    const tabB = bridgeOver(store).bridge
    await tabA.commit(snap('s1', 'a1'))
    await tabB.open('s1')
    expect(await tabA.commit(snap('s1', 'a2'))).toEqual({ type: 'commit_ok' })
    expect(await tabB.commit(snap('s1', 'b2'))).toEqual({ type: 'conflict' })
    // The engine forks: tab B's state goes to a new session, and nothing is lost on either side.
    expect(await tabB.commit(snap('s1-fork', 'b2'))).toEqual({ type: 'commit_ok' })
    expect((await store.list()).map((entry) => entry.id).sort()).toEqual(['s1', 's1-fork'])
    expect([bodyOf((await store.load('s1'))?.bytes), bodyOf((await store.load('s1-fork'))?.bytes)]).toEqual(['a2', 'b2'])
  })

  it('never overlaps commits of one session: while one is written, only the newest pending bytes are kept', async () => {
    const recorded = spy(memorySessionStore())
    const gate = gated(recorded.store)
    const { bridge } = bridgeOver(gate.store)
    const events: Array<[string, SessionEvent]> = []
    const track = (name: string, pending: Promise<SessionEvent>) => pending.then((event) => events.push([name, event]))
    const all = Promise.all([track('b1', bridge.commit(snap('s1', 'b1'))), track('b2', bridge.commit(snap('s1', 'b2'))), track('b3', bridge.commit(snap('s1', 'b3')))])
    await until(() => gate.waiting() === 1)
    gate.release()
    await until(() => gate.waiting() === 1)
    expect(gate.waiting()).toBe(1) // b3 waits; b2 was replaced and never reaches the store
    gate.release()
    await all
    expect(events).toEqual([
      ['b1', { type: 'commit_ok' }],
      ['b2', { type: 'commit_ok' }],
      ['b3', { type: 'commit_ok' }],
    ])
    expect(recorded.commits).toEqual([
      { id: 's1', body: 'b1', expected: undefined },
      { id: 's1', body: 'b3', expected: recorded.commits[1]!.expected },
    ])
    expect(bodyOf((await recorded.store.load('s1'))?.bytes)).toBe('b3')
  })

  it('keeps sessions apart: a slow commit of one does not hold up another', async () => {
    const memory = memorySessionStore()
    const gate = gated(memory)
    const store: AsyncSessionStore = { ...memory, commit: (id, bytes, expected) => (id === 'slow' ? gate.store.commit(id, bytes, expected) : memory.commit(id, bytes, expected)) }
    const { bridge } = bridgeOver(store)
    const slow = bridge.commit(snap('slow'))
    expect(await bridge.commit(snap('fast'))).toEqual({ type: 'commit_ok' })
    await until(() => gate.waiting() === 1)
    gate.release()
    expect(await slow).toEqual({ type: 'commit_ok' })
  })

  it('tells the engine of a conflict once, even with commits pending: the fork carries their state', async () => {
    const memory = memorySessionStore()
    await memory.commit('s1', snap('s1', 'other tab'), undefined)
    const recorded = spy(memory)
    const gate = gated(recorded.store)
    const { bridge } = bridgeOver(gate.store)
    const events: Array<[string, SessionEvent]> = []
    const track = (name: string, pending: Promise<SessionEvent>) => pending.then((event) => events.push([name, event]))
    const first = [track('b1', bridge.commit(snap('s1', 'b1'))), track('b2', bridge.commit(snap('s1', 'b2'))), track('b3', bridge.commit(snap('s1', 'b3')))]
    await until(() => gate.waiting() === 1)
    gate.release()
    await Promise.all(first)
    // A commit the engine sent before it heard of the conflict is part of the fork too.
    await track('b4 (in transit)', bridge.commit(snap('s1', 'b4')))
    const fork = bridge.commit(snap('s1-fork', 'b4'))
    await until(() => gate.waiting() === 1)
    gate.release()
    await track('fork', fork)
    expect(events).toEqual([
      ['b2', { type: 'commit_ok' }],
      ['b3', { type: 'commit_ok' }],
      ['b1', { type: 'conflict' }],
      ['b4 (in transit)', { type: 'commit_ok' }],
      ['fork', { type: 'commit_ok' }],
    ])
    expect(recorded.commits.map(({ id, body }) => `${id}:${body}`)).toEqual(['s1:b1', 's1-fork:b4'])
    expect([bodyOf((await memory.load('s1'))?.bytes), bodyOf((await memory.load('s1-fork'))?.bytes)]).toEqual(['other tab', 'b4'])
  })

  it('fails a commit the store never answers after 10 s with commit_error and a session.commit_error event', async () => {
    vi.useFakeTimers()
    const store: SessionStore = { ...memorySessionStore(), commit: () => new Promise<never>(() => {}) }
    const { bridge, reports } = bridgeOver(store)
    let event: SessionEvent | undefined
    void bridge.commit(snap('s1')).then((answer) => (event = answer))
    await vi.advanceTimersByTimeAsync(9_999)
    expect(event).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    const message = "session store commit did not finish within 10 s; the browser's storage may be stuck"
    expect(event).toEqual({ type: 'commit_error', message })
    expect(reports).toEqual([{ event: { type: 'session.commit_error', id: 's1', code: ErrorCode.FX_STORE_TIMEOUT, message } }])
  })

  it('reports a full quota and keeps the last good record', async () => {
    const memory = memorySessionStore()
    let full = false
    const store: SessionStore = {
      ...memory,
      commit: (id, bytes, expected) => {
        if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
        return memory.commit(id, bytes, expected)
      },
    }
    const { bridge, reports } = bridgeOver(store)
    await bridge.commit(snap('s1', 'good'))
    full = true
    const event = await bridge.commit(snap('s1', 'too big'))
    full = false
    expect(event).toEqual({ type: 'commit_error', message: expect.stringContaining("the browser's storage for this site is full") })
    expect(reports.map((r) => [r.event.type, r.event['code']])).toEqual([['session.commit_error', ErrorCode.FX_STORE_QUOTA_EXCEEDED]])
    expect(bodyOf((await memory.load('s1'))?.bytes)).toBe('good')
    // The next commit goes on from the good record's revision.
    expect(await bridge.commit(snap('s1', 'smaller'))).toEqual({ type: 'commit_ok' })
  })

  it('takes a commit that timed out but landed later as its own, not as a conflict', async () => {
    const memory = memorySessionStore()
    let late: (() => void) | undefined
    const store: SessionStore = {
      ...memory,
      commit: async (id, bytes, expected) => {
        if (!late) await new Promise<void>((resolve) => (late = resolve))
        return memory.commit(id, bytes, expected)
      },
    }
    const afterTimeout = fakeStoreClock()
    const { bridge } = bridgeOver(store, { timeoutMs: 20 })
    expect((await afterTimeout(bridge.commit(snap('s1', 'slow')))).type).toBe('commit_error')
    late!()
    await until(async () => (await memory.list()).length === 1)
    expect(await bridge.commit(snap('s1', 'next'))).toEqual({ type: 'commit_ok' })
    expect(bodyOf((await memory.load('s1'))?.bytes)).toBe('next')
  })

  it('hands its snapshots over to a store that takes them, and still knows a late write of its own by the store\'s revision', async () => {
    const indexedDB = freshIndexedDB()
    const backing = idbSessionStore({ indexedDB })
    let late: (() => void) | undefined
    const calls: string[] = []
    const store = {
      ...backing,
      commit: (id: string, bytes: Uint8Array, expected: string | undefined) => {
        calls.push(`copied ${bodyOf(bytes)}`)
        return backing.commit(id, bytes, expected)
      },
      commitHandingOver: async (id: string, bytes: Uint8Array, expected: string | undefined) => {
        calls.push(`handed over ${bodyOf(bytes)}`)
        const copy = bytes.slice()
        structuredClone(bytes.buffer, { transfer: [bytes.buffer] }) // the caller's view is emptied, as a transfer does
        if (bodyOf(copy) === 'slow' && !late) await new Promise<void>((resolve) => (late = resolve))
        return backing.commit(id, copy, expected)
      },
    }
    const afterTimeout = fakeStoreClock()
    const { bridge } = bridgeOver(store, { timeoutMs: 20 })
    const first = snap('s1', 'first')
    expect(await bridge.commit(first)).toEqual({ type: 'commit_ok' })
    expect(first.byteLength).toBe(0) // moved on, not copied
    expect((await afterTimeout(bridge.commit(snap('s1', 'slow')))).type).toBe('commit_error')
    late!()
    await until(async () => bodyOf((await backing.load('s1'))?.bytes) === 'slow')
    // The stored revision is the one the store's own late write made: taken as ours, no conflict.
    expect(await bridge.commit(snap('s1', 'next'))).toEqual({ type: 'commit_ok' })
    expect(bodyOf((await backing.load('s1'))?.bytes)).toBe('next')
    // After an unanswered commit the next bytes are kept for a retry: copied, then handed over on it.
    expect(calls).toEqual(['handed over first', 'handed over slow', 'copied next', 'handed over next'])
  })

  it('does not take a write by another tab as its own late write', async () => {
    const indexedDB = freshIndexedDB()
    const mine = idbSessionStore({ indexedDB })
    const other = idbSessionStore({ indexedDB })
    let late: (() => void) | undefined
    const store = {
      ...mine,
      commitHandingOver: async (id: string, bytes: Uint8Array, expected: string | undefined) => {
        if (bodyOf(bytes) === 'slow' && !late) {
          await new Promise<void>((resolve) => (late = resolve))
          throw new Error('lost')
        }
        return mine.commit(id, bytes, expected)
      },
    }
    const afterTimeout = fakeStoreClock()
    const { bridge } = bridgeOver(store, { timeoutMs: 20 })
    await bridge.commit(snap('s1', 'first'))
    expect((await afterTimeout(bridge.commit(snap('s1', 'slow')))).type).toBe('commit_error')
    const { revision } = (await other.load('s1'))!
    await other.commit('s1', snap('s1', 'other tab'), revision)
    late!()
    expect(await bridge.commit(snap('s1', 'next'))).toEqual({ type: 'conflict' })
    expect(bodyOf((await other.load('s1'))?.bytes)).toBe('other tab')
  })

  it('answers bytes without a readable header with commit_error and writes nothing', async () => {
    const { store, commits } = spy(memorySessionStore())
    const { bridge, reports } = bridgeOver(store)
    const message = 'the engine sent a snapshot whose header cannot be read'
    expect(await bridge.commit(utf8('not a snapshot'))).toEqual({ type: 'commit_error', message })
    expect([commits, reports]).toEqual([[], [{ event: { type: 'session.commit_error', code: ErrorCode.FX_STORE_RECORD_INVALID, message } }]])
  })

  it('forgets the revision of a session it removed, so committing it again creates it anew', async () => {
    const { store, commits } = spy(memorySessionStore())
    const { bridge, listChanges } = bridgeOver(store)
    await bridge.commit(snap('s1', 'a'))
    await bridge.remove('s1')
    expect(await store.list()).toEqual([])
    expect(await bridge.commit(snap('s1', 'b'))).toEqual({ type: 'commit_ok' })
    expect(commits.map((c) => c.expected)).toEqual([undefined, undefined])
    expect(listChanges()).toBe(3)
  })
})

describe('session bridge list', () => {
  it('lists newest first with title, turns and first prompt from each header; an unreadable one by id only', async () => {
    let clock = 0
    const store = idbSessionStore({ indexedDB: freshIndexedDB(), now: () => clock })
    clock = 100
    await store.commit('old', snap('old', 'x', 4), undefined)
    clock = 300
    await store.commit('damaged', utf8('FXSN but not really'), undefined)
    clock = 200
    await store.commit('middle', snap('middle', 'x', 2), undefined)
    const { bridge } = bridgeOver(store)
    expect(await bridge.list()).toEqual([
      { id: 'damaged', updatedAtMs: 300 },
      { id: 'middle', updatedAtMs: 200, title: 'Title of middle', turns: 2, firstPrompt: 'first prompt of middle' },
      { id: 'old', updatedAtMs: 100, title: 'Title of old', turns: 4, firstPrompt: 'first prompt of old' },
    ])
  })

  it('reads the headers of the 50 newest only; older sessions are listed by id', async () => {
    let clock = 0
    const memory = memorySessionStore({ now: () => clock })
    for (let i = 0; i < 52; i++) {
      clock = 1_000 + i
      await memory.commit(`s${i}`, snap(`s${i}`), undefined)
    }
    const recorded = spy(memory)
    const { bridge } = bridgeOver(recorded.store)
    const listed = await bridge.list()
    expect(recorded.loads()).toBe(50)
    expect(listed.slice(0, 1)).toEqual([{ id: 's51', updatedAtMs: 1_051, title: 'Title of s51', turns: 1, firstPrompt: 'first prompt of s51' }])
    expect(listed.slice(49)).toEqual([
      { id: 's2', updatedAtMs: 1_002, title: 'Title of s2', turns: 1, firstPrompt: 'first prompt of s2' },
      { id: 's1', updatedAtMs: 1_001 },
      { id: 's0', updatedAtMs: 1_000 },
    ])
  })

  it('reads only the start of each session where the store can, and the whole one when its header is longer', async () => {
    const memory = memorySessionStore()
    await memory.commit('short', snap('short'), undefined)
    const long = encodeSnapshot({ id: 'long', title: 'x'.repeat(5000), createdMs: 1, updatedMs: 1, turns: 2, firstPrompt: 'p' }, '{"body":"b"}')
    await memory.commit('long', long, undefined)
    const heads: string[] = []
    const recorded = spy(memory)
    const store = {
      ...recorded.store,
      loadHead: async (id: string, atLeast: number) => {
        heads.push(id)
        const found = await memory.load(id)
        return found && { bytes: found.bytes.slice(0, atLeast), revision: found.revision }
      },
    }
    const listed = await bridgeOver(store).bridge.list()
    expect(listed.map((entry) => [entry.id, entry.title?.length])).toEqual(expect.arrayContaining([['short', 'Title of short'.length], ['long', 5000]]))
    expect([heads.sort(), recorded.loads()]).toEqual([['long', 'short'], 1]) // loaded whole: only the long header
  })

  it('sorts an app store that answers in any order, and skips a load that fails', async () => {
    const store: SessionStore = {
      load: (id) => {
        if (id === 'b') throw new Error('disk on fire')
        return { bytes: snap(id), revision: '1' }
      },
      commit: () => ({ revision: '1' }),
      list: () => [{ id: 'a', updatedAtMs: 1 }, { id: 'c', updatedAtMs: 3 }, { id: 'b', updatedAtMs: 2 }],
      remove: () => {},
    }
    const { bridge } = bridgeOver(store)
    expect((await bridge.list()).map((e) => [e.id, e.title])).toEqual([['c', 'Title of c'], ['b', undefined], ['a', 'Title of a']])
  })

  it('reports a list that fails with a notice', async () => {
    const store: SessionStore = { ...memorySessionStore(), list: () => Promise.reject(new Error('disk on fire')) }
    const { bridge, reports } = bridgeOver(store)
    await expect(bridge.list()).rejects.toThrow('session store list failed: disk on fire')
    expect(reports).toEqual([
      {
        event: { type: 'session.list_error', message: 'session store list failed: disk on fire' },
        notice: 'Saved sessions could not be listed (session store list failed: disk on fire).',
      },
    ])
  })
})

describe('session bridge locks', () => {
  it('opens a session another tab writes read-only, and takes the lock of a session it starts writing', async () => {
    const locks = fakeLocks()
    const store = memorySessionStore()
    const tabA = bridgeOver(store, { locks }).bridge
    const tabB = bridgeOver(store, { locks }).bridge
    await tabA.commit(snap('s1'))
    await until(() => locks.held().length === 1)
    expect(locks.held()).toEqual(['fxterm-session:test:s1'])
    expect((await tabB.open('s1'))?.readOnly).toBe(true)
    // Tab B's engine forks when the person continues: the fork's lock is B's.
    await tabB.commit(snap('s1-fork'))
    await until(() => locks.held().length === 2)
    expect(locks.held()).toEqual(['fxterm-session:test:s1', 'fxterm-session:test:s1-fork'])
    tabA.dispose()
    await until(() => locks.held().length === 1)
    // Now free, s1 opens writable in B, which lets go of the fork it no longer writes.
    expect((await tabB.open('s1'))?.readOnly).toBe(false)
    await until(() => locks.held().join() === 'fxterm-session:test:s1')
  })

  it('opens everything writable where there are no Web Locks', async () => {
    const store = memorySessionStore()
    const tabA = bridgeOver(store, { locks: null }).bridge
    await tabA.commit(snap('s1'))
    expect((await bridgeOver(store, { locks: null }).bridge.open('s1'))?.readOnly).toBe(false)
  })

  it('opens writable when the lock manager itself fails', async () => {
    const store = memorySessionStore()
    await store.commit('s1', snap('s1'), undefined)
    const broken = { request: () => Promise.reject(new DOMException('opaque origin', 'SecurityError')) } as unknown as Pick<LockManager, 'request'>
    expect((await bridgeOver(store, { locks: broken }).bridge.open('s1'))?.readOnly).toBe(false)
  })
})

describe('session bridge resume at start', () => {
  it('resumes the session updated last, whatever order the store lists in', async () => {
    const store: SessionStore = {
      ...memorySessionStore(),
      list: () => [{ id: 'older', updatedAtMs: 5 }, { id: 'latest', updatedAtMs: 9 }, { id: 'oldest', updatedAtMs: 1 }],
      load: (id) => ({ bytes: snap(id), revision: `rev-${id}` }),
    }
    const { bridge } = bridgeOver(store)
    const resumed = await bridge.resume('last')
    expect(resumed).toEqual({ session: { bytes: snap('latest'), readOnly: false, stored: { id: 'latest', revision: 'rev-latest' } } })
  })

  it('starts fresh without a notice when there is no saved session yet', async () => {
    expect(await bridgeOver(memorySessionStore()).bridge.resume('last')).toEqual({})
  })

  it('says so when the session asked for does not exist', async () => {
    expect(await bridgeOver(memorySessionStore()).bridge.resume('s-gone')).toEqual({ notice: 'There is no saved session s-gone; this is a new session.' })
  })

  it('reports a record that cannot be read and leaves it alone', async () => {
    const memory = memorySessionStore()
    await memory.commit('s1', snap('s1'), undefined)
    const store: SessionStore = { ...memory, load: () => Promise.reject(Object.assign(new Error('the stored session "s1" is not in the format fxterm writes'), { code: ErrorCode.FX_STORE_RECORD_INVALID })) }
    const { bridge, reports } = bridgeOver(store)
    expect(await bridge.resume('last')).toEqual({
      notice: 'The saved session could not be read (the stored session "s1" is not in the format fxterm writes). It was left as it is; this is a new session.',
    })
    expect(reports).toEqual([{ event: { type: 'session.load_error', id: 's1', message: 'the stored session "s1" is not in the format fxterm writes' } }])
    expect(bodyOf((await memory.load('s1'))?.bytes)).toBe('v1')
  })

  it('waits briefly for the lock of the page a reload replaces', async () => {
    const locks = fakeLocks()
    const store = memorySessionStore()
    const before = bridgeOver(store, { locks }).bridge
    await before.commit(snap('s1'))
    await until(() => locks.held().length === 1)
    const resuming = bridgeOver(store, { locks }).bridge.resume('last')
    before.dispose() // the old page goes away a moment later
    expect((await resuming).session?.readOnly).toBe(false)
  })

  it('opens read-only when another tab keeps the lock', async () => {
    const locks = fakeLocks()
    const store = memorySessionStore()
    await bridgeOver(store, { locks }).bridge.commit(snap('s1'))
    await until(() => locks.held().length === 1)
    expect((await bridgeOver(store, { locks }).bridge.resume('s1')).session?.readOnly).toBe(true)
  })
})

describe('session bridge resume read by the engine worker', () => {
  it('names the session by id, and its next commit passes the revision the worker read', async () => {
    const memory = memorySessionStore()
    const { revision } = await memory.commit('s1', snap('s1'), undefined)
    const spied = spy(memory)
    const { bridge } = bridgeOver(spied.store)
    expect(await bridge.resumeRead({ id: 's1', revision })).toEqual({ session: { prefetchedId: 's1', readOnly: false, stored: { id: 's1', revision } } })
    expect(await bridge.commit(snap('s1', 'v2'))).toEqual({ type: 'commit_ok' })
    expect(spied.commits).toEqual([{ id: 's1', body: 'v2', expected: revision }])
    expect([bodyOf((await memory.load('s1'))?.bytes), spied.loads()]).toEqual(['v2', 0])
  })

  it('starts fresh when the worker found no saved session', async () => {
    expect(await bridgeOver(memorySessionStore()).bridge.resumeRead(null)).toEqual({})
  })

  it('opens read-only when another tab keeps the lock', async () => {
    const locks = fakeLocks()
    const store = memorySessionStore()
    await bridgeOver(store, { locks }).bridge.commit(snap('s1'))
    await until(() => locks.held().length === 1)
    const { revision } = (await store.load('s1'))!
    expect(await bridgeOver(store, { locks }).bridge.resumeRead({ id: 's1', revision })).toEqual({ session: { prefetchedId: 's1', readOnly: true, stored: { id: 's1', revision } } })
  })
})

describe('resumeArgument', () => {
  it('reads --resume last, --resume <id>, a bare --resume and --resume=<id>', () => {
    expect([
      resumeArgument([]),
      resumeArgument(['--resume', 'last']),
      resumeArgument(['--resume', 's123']),
      resumeArgument(['--resume']),
      resumeArgument(['--resume', '--verbose']),
      resumeArgument(['--resume=s9']),
    ]).toEqual([null, 'last', 's123', 'last', 'last', 's9'])
  })
})

describe('session bridge: which session the workspace files follow', () => {
  it('tells how each session became current: first one, resume, /new, conflict fork, read-only fork, removal', async () => {
    const locks = fakeLocks()
    const store = memorySessionStore()
    const told: string[] = []
    const more = { locks, onSession: (id: string, how: string) => told.push(`${id}:${how}`), onRemoved: (id: string) => told.push(`${id}:removed`) }
    const tabA = bridgeOver(store, more).bridge
    await tabA.commit(snap('first'))
    await tabA.commit(snap('first', 'v2')) // the same session: nothing to tell
    await tabA.commit(snap('after-new'))
    await tabA.open('first')
    const tabB = bridgeOver(store, { ...more, onSession: (id: string, how: string) => told.push(`B ${id}:${how}`) }).bridge
    expect((await tabB.open('first'))?.readOnly).toBe(true)
    await tabB.commit(snap('b-fork'))
    // A conflict: another tab wrote the session this tab holds; the engine's fork copies the files.
    await store.commit('first', snap('first', 'elsewhere'), (await store.load('first'))!.revision)
    expect(await tabA.commit(snap('first', 'v3'))).toEqual({ type: 'conflict' })
    await tabA.commit(snap('a-fork'))
    await tabA.remove('after-new')
    expect(told).toEqual([
      'first:fork', // a fresh page: the files at hand become the session's
      'after-new:new', // another session after one: /new, the seed files
      'first:open',
      'B first:read-only',
      'B b-fork:fork',
      'a-fork:fork',
      'after-new:removed',
    ])
  })
})

describe('session bridge: notes of the engine worker\'s own writes', () => {
  const note = (id: string, seq: number, more: Partial<CommitNote> = {}): CommitNote => ({ id, seq, outcome: 'ok', created: false, forked: false, startedAt: 1, endedAt: 2, bytes: 10, ...more })

  it('takes the lock, tells the workspace and the other tabs of a new session, and reports a failed write', async () => {
    const locks = fakeLocks()
    const told: string[] = []
    const { bridge, reports, listChanges } = bridgeOver(memorySessionStore(), { locks, onSession: (id, how) => told.push(`${id}:${how}`) })
    bridge.written(note('s1', 1, { created: true }))
    await until(() => locks.held().length === 1)
    bridge.written(note('s1', 2))
    bridge.written(note('s1', 3, { outcome: 'error', code: ErrorCode.FX_STORE_QUOTA_EXCEEDED, message: 'storage is full' }))
    expect(told).toEqual(['s1:fork'])
    expect(listChanges()).toBe(1)
    expect(reports).toEqual([{ event: { type: 'session.commit_error', id: 's1', code: ErrorCode.FX_STORE_QUOTA_EXCEEDED, message: 'storage is full' } }])
  })

  it('keeps to the session made last when the notes of two sessions cross', () => {
    const told: string[] = []
    const { bridge } = bridgeOver(memorySessionStore(), { onSession: (id, how) => told.push(`${id}:${how}`) })
    bridge.written(note('old', 1, { created: true }))
    bridge.written(note('new', 3, { created: true }))
    bridge.written(note('old', 2)) // written before /new's first commit, answered after it
    expect(told).toEqual(['old:fork', 'new:new'])
  })

  it('switches to a new session when its commit is taken, and the write\'s note does not switch again', () => {
    const told: string[] = []
    const { bridge, listChanges } = bridgeOver(memorySessionStore(), { onSession: (id, how) => told.push(`${id}:${how}`) })
    bridge.written(note('old', 1, { created: true }))
    bridge.taken({ id: 'new', forked: false, seq: 2 })
    // The workspace switches now, before any command the engine asks for after the commit.
    expect(told).toEqual(['old:fork', 'new:new'])
    bridge.written(note('new', 2, { created: true }))
    expect(told).toEqual(['old:fork', 'new:new'])
    expect(listChanges()).toBe(2)
  })

  it('tells of the engine\'s fork after a conflict as a fork', () => {
    const told: string[] = []
    const { bridge } = bridgeOver(memorySessionStore(), { onSession: (id, how) => told.push(`${id}:${how}`) })
    bridge.written(note('s1', 1, { created: true }))
    bridge.written(note('s1', 2, { outcome: 'conflict' }))
    bridge.written(note('s1-fork', 3, { created: true, forked: true }))
    expect(told).toEqual(['s1:fork', 's1-fork:fork'])
  })
})
