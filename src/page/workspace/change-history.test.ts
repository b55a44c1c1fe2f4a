import { describe, expect, it } from 'vitest'
import { createChangeHistory } from './change-history'
import { applySnapshotDelta, type Snapshot, type SnapshotDelta } from './snapshot-store'

const file = (content: string) => ({ kind: 'file' as const, content })

/** Records then applies `delta`, as the workspace does after each command. */
function change(history: ReturnType<typeof createChangeHistory>, snapshot: Snapshot, delta: SnapshotDelta) {
  history.record(snapshot, delta)
  applySnapshotDelta(snapshot, delta)
}

describe('the change history', () => {
  it('keeps each file as it was before the turn that first changed it', () => {
    const snapshot: Snapshot = new Map([['/w/a', file('a0')]])
    const history = createChangeHistory()
    history.beginTurn()
    change(history, snapshot, { changed: [['/w/a', file('a1')]], removed: [] })
    change(history, snapshot, { changed: [['/w/a', file('a2')], ['/w/b', file('b1')]], removed: [] })
    expect(history.befores('last')).toEqual(new Map([['/w/a', file('a0')], ['/w/b', null]]))
  })

  it('gives the session-start content for /diff and the last turn’s for /diff last', () => {
    const snapshot: Snapshot = new Map([['/w/a', file('a0')]])
    const history = createChangeHistory()
    history.beginTurn()
    change(history, snapshot, { changed: [['/w/a', file('a1')]], removed: [] })
    history.beginTurn()
    change(history, snapshot, { changed: [['/w/a', file('a2')]], removed: ['/w/gone'] })
    expect(history.befores('all')).toEqual(new Map([['/w/a', file('a0')], ['/w/gone', null]]))
    expect(history.befores('last')).toEqual(new Map([['/w/a', file('a1')], ['/w/gone', null]]))
  })

  it('pops the turns that changed files, newest first, skipping turns that changed none', () => {
    const snapshot: Snapshot = new Map()
    const history = createChangeHistory()
    history.beginTurn()
    change(history, snapshot, { changed: [['/w/a', file('1')]], removed: [] })
    history.beginTurn()
    change(history, snapshot, { changed: [['/w/b', file('1')]], removed: [] })
    history.beginTurn() // a turn that only talked
    expect(history.turns).toBe(2)
    expect([...(history.popTurn() ?? new Map()).keys()]).toEqual(['/w/b'])
    expect([...(history.popTurn() ?? new Map()).keys()]).toEqual(['/w/a'])
    expect(history.popTurn()).toBeNull()
  })

  it('forgets every turn when another conversation begins', () => {
    const snapshot: Snapshot = new Map()
    const history = createChangeHistory()
    change(history, snapshot, { changed: [['/w/a', file('1')]], removed: [] })
    history.reset()
    expect([history.turns, history.popTurn(), history.befores('all')]).toEqual([0, null, new Map()])
  })

  it('leaves directories out', () => {
    const snapshot: Snapshot = new Map()
    const history = createChangeHistory()
    change(history, snapshot, { changed: [['/w/d', { kind: 'dir' }]], removed: [] })
    expect(history.turns).toBe(0)
  })
})

describe('a repository in the workspace', () => {
  it('keeps .git files out of the history while the snapshot still stores them', () => {
    const snapshot: Snapshot = new Map()
    const history = createChangeHistory()
    history.beginTurn()
    change(history, snapshot, {
      changed: [
        ['/w/a.txt', file('a')],
        ['/w/.git/HEAD', file('ref: refs/heads/main\n')],
        ['/w/sub/.git/index', file('DIRC')],
        ['/w/.github/workflow.yml', file('on: push')],
      ],
      removed: ['/w/.git/index.lock'],
    })
    expect(history.befores('all')).toEqual(new Map([['/w/a.txt', null], ['/w/.github/workflow.yml', null]]))
    expect(snapshot.get('/w/.git/HEAD')).toEqual(file('ref: refs/heads/main\n'))
    expect(history.popTurn()).toEqual(new Map([['/w/a.txt', null], ['/w/.github/workflow.yml', null]]))
  })
})
