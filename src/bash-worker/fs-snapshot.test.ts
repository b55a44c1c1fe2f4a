import { describe, expect, it } from 'vitest'
import { Bash } from 'just-bash/browser'
import { createBashSession } from './bash-session'
import { createChangeTracker, createScanningTracker, createSnapshotFs } from './fs-snapshot'
import { applySnapshotDelta, readSnapshotFile, seedSnapshot, type Snapshot, type SnapshotDelta } from '../page/workspace/snapshot-store'

function input(command: string) {
  return { command, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 65_536 }
}

describe('file snapshots', () => {
  it('seeds relative paths under the root and keeps absolute ones', () => {
    expect([...seedSnapshot({ 'a.txt': 'A', './src/../b.txt': 'B', '/etc/c': 'C' }, '/workspace')]).toEqual([
      ['/workspace/a.txt', { kind: 'file', content: 'A' }],
      ['/workspace/b.txt', { kind: 'file', content: 'B' }],
      ['/etc/c', { kind: 'file', content: 'C' }],
    ])
  })

  it('reports nothing when no command changed anything', async () => {
    const session = await createBashSession({ entries: seedSnapshot({ 'a.txt': 'A' }, '/workspace') })
    await session.exec(input('cat a.txt; ls /bin > /dev/null'))
    expect(await session.changes()).toEqual({ changed: [], removed: [] })
  })

  it('reports written, re-moded and removed entries', async () => {
    const session = await createBashSession({
      entries: seedSnapshot({ 'gone.txt': 'x', 'same-size.txt': 'a' }, '/workspace'),
    })
    await session.exec(input('rm gone.txt; echo b > same-size.txt; mkdir empty; chmod 700 empty'))
    const delta = await session.changes()
    expect({
      removed: delta.removed,
      changed: delta.changed.map(([path, entry]) => [path, entry.kind, 'mode' in entry ? entry.mode : null]),
    }).toEqual({
      removed: ['/workspace/gone.txt'],
      changed: [
        ['/workspace/same-size.txt', 'file', 0o644],
        ['/workspace/empty', 'dir', 0o700],
      ],
    })
  })

  it('restores a session from the snapshot it reported, files, modes and symlinks included', async () => {
    const seed = seedSnapshot({ 'notes.txt': 'seed\n' }, '/workspace')
    const first = await createBashSession({ entries: seed })
    await first.exec(input('printf "\\xe2\\x82\\xac\\n" > euro.txt; mkdir -p d/empty; echo run > d/run.sh'))
    await first.exec(input('chmod 755 d/run.sh; ln -s notes.txt link.txt; rm notes.txt; echo new > notes.txt'))
    const snapshot: Snapshot = new Map(seed)
    applySnapshotDelta(snapshot, await first.changes())

    const second = await createBashSession({ entries: snapshot })
    const listing = 'find . | sort; cat euro.txt link.txt; stat -c %a d/run.sh; readlink link.txt'
    expect(await second.exec(input(listing))).toEqual(await first.exec(input(listing)))
    expect((await second.exec(input(listing))).stdout).toBe(
      '.\n./d\n./d/empty\n./d/run.sh\n./euro.txt\n./link.txt\n./notes.txt\n€\nnew\n755\nnotes.txt\n',
    )
  })

  it('answers reads from the snapshot alone unless a symlink could be involved', () => {
    const snapshot = seedSnapshot({ 'a.txt': 'A' }, '/workspace')
    snapshot.set('/workspace/bytes', { kind: 'file', content: new TextEncoder().encode('é') })
    snapshot.set('/workspace/dir', { kind: 'dir' })
    const before = ['/workspace/a.txt', '/workspace/bytes', '/workspace/dir', '/workspace/none']
    expect(before.map((path) => readSnapshotFile(snapshot, path))).toEqual(['A', 'é', null, null])
    snapshot.set('/workspace/link', { kind: 'symlink', target: 'a.txt' })
    expect(readSnapshotFile(snapshot, '/workspace/link')).toBe(undefined)
  })

  it('reports from the written paths exactly what a full scan reports, through rm -r, mv, cp -r, chmod and touch', async () => {
    const seed = seedSnapshot({ 'd/a.txt': 'a', 'd/sub/b.txt': 'b', 'old/x.txt': 'x', 'keep.txt': 'k' }, '/workspace')
    const fs = await createSnapshotFs(seed, ['/workspace'])
    const bash = new Bash({ fs, cwd: '/workspace' })
    const fromWrites = await createChangeTracker(fs)
    const fromScan = await createScanningTracker(fs)
    expect(fs.takeDirty()).toEqual([]) // tracking writes (null would mean scanning), none yet
    const commands = [
      'cp -r d copy; mv old moved; rm -r d',
      'chmod 600 keep.txt; touch -d 2001-02-03 copy/a.txt; ln -s keep.txt link; echo more >> moved/x.txt',
      'rm link; mkdir -p new/deep; echo n > new/deep/n.txt',
    ]
    const sorted = (delta: SnapshotDelta) => ({
      changed: delta.changed.map(([path, entry]) => [path, entry]).sort(([a], [b]) => String(a).localeCompare(String(b))),
      removed: [...delta.removed].sort(),
    })
    for (const command of commands) {
      expect((await bash.exec(command)).exitCode).toBe(0)
      expect(sorted(await fromWrites.changes())).toEqual(sorted(await fromScan.changes()))
    }
  })

  it('reports nothing from the written paths when a command only reads', async () => {
    const fs = await createSnapshotFs(seedSnapshot({ 'a.txt': 'A' }, '/workspace'), ['/workspace'])
    const bash = new Bash({ fs, cwd: '/workspace' })
    const tracker = await createChangeTracker(fs)
    await bash.exec('cat a.txt; ls -la /bin > /dev/null; find / -name a.txt')
    expect(await tracker.changes()).toEqual({ changed: [], removed: [] })
  })
})
