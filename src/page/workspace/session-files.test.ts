// The files kept with each session: what a person gets back after a reload, a /new, a /resume
// or a fork, with the bash workspace running real just-bash in this thread and a fake IndexedDB.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBashWorkerApi } from '../../bash-worker/worker-api'
import type { BashWorkerApi } from '../../shared/messages/bash-worker-api'
import { runClockUntil, useFakeClock } from '../../../test/support/clock'
import type { DiffAnswer, UndoAnswer } from '../../shared/protocol/workspace-ops'
import { freshIndexedDB } from '../../../test/support/idb'
import { openStoredFiles } from './stored-files'
import { disposeOpened, execInput as input, openWorkspace } from '../../../test/support/workspaces'

afterEach(() => {
  disposeOpened()
  vi.useRealTimers()
})

const SEED = { 'README.md': '# seed\n' }

/** A page load: a persisting workspace on `idb`, on session `id`. */
async function load(idb: IDBFactory, id: string, how: 'open' | 'read-only' | 'new' | 'fork' = 'open') {
  const opened = openWorkspace({ files: SEED, persist: { namespace: 'test', indexedDB: idb } })
  await opened.workspace.useSession(id, how)
  return opened
}
const run = async (workspace: { exec: (i: ReturnType<typeof input>) => Promise<{ stdout: string; stderr: string }> }, command: string) => {
  const result = await workspace.exec(input(command))
  return result.stdout + result.stderr
}

describe('files kept with their session', () => {
  it('a reload brings back the files as they were after the last command, removals included', async () => {
    const idb = freshIndexedDB()
    const first = await load(idb, 's1', 'fork')
    await run(first.workspace, 'mkdir -p src && echo one > src/a.txt && echo two > b.txt && rm README.md')
    await first.workspace.persisted()
    first.workspace.dispose()

    const again = await load(idb, 's1')
    expect(await run(again.workspace, 'cat src/a.txt b.txt; ls')).toBe('one\ntwo\nb.txt\nsrc\n')
  })

  it('a command answers only once its files are stored: a reload right after has 300 of them', async () => {
    const idb = freshIndexedDB()
    const first = await load(idb, 's1', 'fork')
    await run(first.workspace, 'mkdir many && for i in $(seq 1 300); do echo "n $i" > many/f$i.txt; done')
    // No persisted(): the page reloads as soon as the result is on screen.
    const loaded = await openStoredFiles('test', idb).load('s1')
    expect(loaded?.entries.filter(([path]) => path.startsWith('/workspace/many/f')).length).toBe(300)
    first.workspace.dispose()
  })

  it('a repository is kept with the session, but /diff and /undo show only the files a command changed', async () => {
    const idb = freshIndexedDB()
    const first = await load(idb, 's', 'fork')
    await first.workspace.workspaceOp({ op: 'turn' })
    const env = 'export GIT_AUTHOR_DATE="1700000000 +0000" GIT_COMMITTER_DATE="1700000000 +0000"'
    await run(first.workspace, `${env}; git init -q && echo one > a.txt && git add a.txt && git commit -qm one`)
    await first.workspace.persisted()
    first.workspace.dispose()

    const again = await load(idb, 's')
    expect(await run(again.workspace, 'git log --format=%s && git status --short')).toBe('one\n?? README.md\n')
    const all = (await again.workspace.workspaceOp({ op: 'diff', scope: 'all' })) as DiffAnswer
    expect([all.files, all.added, all.removed]).toEqual([1, 1, 0])
    expect(all.text).not.toContain('.git/')
    expect(((await again.workspace.workspaceOp({ op: 'undo' })) as UndoAnswer).restored).toEqual(['a.txt'])
  })

  it('/diff and /undo work after a reload, turn by turn, and an undo is stored too', async () => {
    const idb = freshIndexedDB()
    const first = await load(idb, 's', 'fork')
    await first.workspace.workspaceOp({ op: 'turn' })
    await run(first.workspace, 'echo one > a.txt && echo "# changed" > README.md')
    await first.workspace.workspaceOp({ op: 'turn' })
    await run(first.workspace, 'echo two > a.txt')
    await first.workspace.persisted()
    first.workspace.dispose()

    const again = await load(idb, 's')
    // The engine says "another session" on every resume: the restored history stays.
    await again.workspace.workspaceOp({ op: 'session' })
    const all = (await again.workspace.workspaceOp({ op: 'diff', scope: 'all' })) as DiffAnswer
    expect([all.files, all.added, all.removed]).toEqual([2, 2, 1])
    expect(all.text).toContain('+two')
    const last = (await again.workspace.workspaceOp({ op: 'diff', scope: 'last' })) as DiffAnswer
    expect(last.text).toContain('-one')
    expect(((await again.workspace.workspaceOp({ op: 'undo' })) as UndoAnswer).restored).toEqual(['a.txt'])
    expect(await run(again.workspace, 'cat a.txt')).toBe('one\n')
    await again.workspace.persisted()
    again.workspace.dispose()

    const third = await load(idb, 's')
    expect(await run(third.workspace, 'cat a.txt')).toBe('one\n')
    expect(((await third.workspace.workspaceOp({ op: 'undo' })) as UndoAnswer).restored).toEqual(['README.md', 'a.txt'])
    expect(await run(third.workspace, 'cat README.md; ls')).toBe('# seed\nREADME.md\n')
    expect(((await third.workspace.workspaceOp({ op: 'undo' })) as UndoAnswer).restored).toEqual([])
  })

  it('/new starts from the seed files, and resuming the older session brings its own files back', async () => {
    const idb = freshIndexedDB()
    const { workspace } = await load(idb, 'old', 'fork')
    await run(workspace, 'echo changed > README.md && echo extra > extra.txt')
    await workspace.useSession('new-one', 'new')
    expect(await run(workspace, 'cat README.md; ls')).toBe('# seed\nREADME.md\n')
    await run(workspace, 'echo mine > new.txt')
    await workspace.useSession('old', 'open')
    expect(await run(workspace, 'cat README.md; ls')).toBe('changed\nREADME.md\nextra.txt\n')
    await workspace.useSession('new-one', 'open')
    expect(await run(workspace, 'ls')).toBe('README.md\nnew.txt\n')
  })

  it('a fork copies the files; a read-only session is not written until it forks', async () => {
    const idb = freshIndexedDB()
    const { workspace } = await load(idb, 'held', 'fork')
    await run(workspace, 'echo held > h.txt')
    await workspace.persisted()
    await workspace.useSession('held', 'read-only')
    const other = await load(idb, 'held', 'read-only')
    await run(other.workspace, 'echo tab2 > h.txt')
    await other.workspace.persisted()
    expect(await (await load(idb, 'held')).workspace.readFile({ path: 'h.txt' })).toBe('held\n')
    await other.workspace.useSession('forked', 'fork')
    await other.workspace.persisted()
    expect(await (await load(idb, 'forked')).workspace.readFile({ path: 'h.txt' })).toBe('tab2\n')
  })

  it('after a command only the file it changed is written', async () => {
    const idb = freshIndexedDB()
    const { workspace } = await load(idb, 's', 'fork')
    await run(workspace, 'for i in 1 2 3 4 5; do echo $i > f$i.txt; done')
    await workspace.persisted()
    const realPut = IDBObjectStore.prototype.put
    const written: unknown[] = []
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      written.push(key)
      return realPut.call(this, value, key)
    }
    try {
      await run(workspace, 'echo changed > f3.txt')
      await workspace.persisted()
    } finally {
      IDBObjectStore.prototype.put = realPut
    }
    // The marker that says the session has stored files, the file, and its version before (its last good one).
    expect(written).toEqual([['s', ''], ['s', '/workspace/f3.txt'], ['s', '/workspace/f3.txt', 'prev']])
    expect((await openStoredFiles('test', idb).load('s'))?.entries.length).toBe(6)
  })

  it('removing a session removes its files', async () => {
    const idb = freshIndexedDB()
    const { workspace } = await load(idb, 'gone', 'fork')
    await run(workspace, 'echo x > x.txt')
    await workspace.forgetSession('gone')
    expect(await openStoredFiles('test', idb).load('gone')).toBeNull()
  })

  it('a stored record that cannot be read is set aside with a notice; the rest comes back', async () => {
    const idb = freshIndexedDB()
    const store = openStoredFiles('test', idb)
    await store.write('s', { delta: { changed: [['/workspace/good.txt', { kind: 'file', content: 'good\n' }], ['/workspace/bad.txt', { kind: 'file', content: 42 } as never]], removed: [] } })
    const { workspace } = await load(idb, 's')
    const out = await run(workspace, 'cat good.txt; ls')
    expect(out).toContain('good\ngood.txt\n')
    expect(out).toContain('1 stored file could not be read and was set aside: /workspace/bad.txt')
  })

  it('a record that cannot be read comes back as its last good version, named in the notice', async () => {
    const idb = freshIndexedDB()
    const first = await load(idb, 's', 'fork')
    await run(first.workspace, 'echo "good version" > notes.txt')
    await run(first.workspace, 'echo "newer version" > notes.txt && echo other > other.txt')
    first.workspace.dispose()
    // Between visits the newest record of notes.txt is damaged (written by something else).
    const tx = idb.open('test-files')
    const db = await new Promise<IDBDatabase>((resolve) => (tx.onsuccess = () => resolve(tx.result)))
    const names = [...db.objectStoreNames]
    await new Promise((resolve) => {
      const write = db.transaction(names[0]!, 'readwrite')
      write.objectStore(names[0]!).put({ kind: 'file', content: 42 }, ['s', '/workspace/notes.txt'])
      write.oncomplete = resolve
    })
    db.close()
    const again = await load(idb, 's')
    expect(await run(again.workspace, 'cat notes.txt other.txt')).toBe(
      'good version\nother\nfxterm: 1 stored file could not be read and its last good version came back: /workspace/notes.txt.\n',
    )
  })

  it('a full store: one notice, the files stay in memory, and what was stored is kept', async () => {
    const idb = freshIndexedDB()
    const { workspace } = await load(idb, 's', 'fork')
    await run(workspace, 'echo kept > a.txt')
    await workspace.persisted()
    const realPut = IDBObjectStore.prototype.put
    IDBObjectStore.prototype.put = function () {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    }
    try {
      await run(workspace, 'echo lost > a.txt')
      await workspace.persisted()
      const next = await run(workspace, 'cat a.txt')
      expect(next).toContain('lost\n')
      expect(next).toContain('fxterm: the workspace files could not be stored (The quota has been exceeded.)')
      expect(await run(workspace, 'cat a.txt')).toBe('lost\n') // told once
    } finally {
      IDBObjectStore.prototype.put = realPut
    }
    expect(await (await load(idb, 's')).workspace.readFile({ path: 'a.txt' })).toBe('kept\n')
  })

  it('a command killed by the watchdog leaves the stored files as they were before it', async () => {
    const idb = freshIndexedDB()
    // A command that writes in the worker, then hangs past its deadline and ignores the stop.
    const writesThenHangs = (): BashWorkerApi => {
      const real = createBashWorkerApi()
      return {
        ...real,
        exec: async (id, request) => {
          if (request.command !== 'write-then-hang') return real.exec(id, request)
          await real.exec(id, { ...request, command: 'echo after > state.txt' })
          return new Promise(() => {})
        },
      }
    }
    const { workspace, created } = openWorkspace({ files: SEED, graceMs: 50, persist: { namespace: 'test', indexedDB: idb } }, writesThenHangs)
    await workspace.useSession('s', 'fork')
    await run(workspace, 'echo before > state.txt')
    await workspace.persisted()
    useFakeClock()
    await runClockUntil(workspace.exec(input('write-then-hang', { timeoutMs: 50 })))
    vi.useRealTimers()
    expect(created.map((worker) => worker.terminated)).toEqual([true, false])
    expect(await run(workspace, 'cat state.txt')).toBe('before\n')
    await workspace.persisted()
    expect(await (await load(idb, 's')).workspace.readFile({ path: 'state.txt' })).toBe('before\n')
  })
})
