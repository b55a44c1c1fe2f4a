// The OPFS file journal: what a reload brings back after big and many writes, a write cut off by
// a closing tab, a record that rots on disk, and a full disk. The directory is in memory and
// behaves as Chromium's (a file exists, empty, as soon as it is created; a write lands on close).
import { afterEach, describe, expect, it } from 'vitest'
import { asHandle, MemoryDirectory, MemoryFile } from '../../../test/support/memory-directory'
import { openOpfsStoredFiles } from './opfs-stored-files'
import { disposeOpened, execInput as input, openWorkspace } from '../../../test/support/workspaces'

afterEach(() => disposeOpened())

const SEED = { 'README.md': '# seed\n' }

/** A page load on `disk`: a workspace keeping its files in the OPFS journal, on session `id`. */
async function load(disk: MemoryDirectory, id: string, how: 'open' | 'fork' = 'open') {
  const notices: string[] = []
  const opened = openWorkspace({ files: SEED, persist: { namespace: 'test', opfs: async () => asHandle(disk) } })
  opened.workspace.onProgress((line, kind) => kind === 'notice' && notices.push(line))
  await opened.workspace.useSession(id, how)
  return { ...opened, notices }
}
const run = async (workspace: { exec: (i: ReturnType<typeof input>) => Promise<{ stdout: string; stderr: string }> }, command: string) => {
  const result = await workspace.exec(input(command))
  return result.stdout + result.stderr
}
const sessionFolder = (disk: MemoryDirectory, id: string) => disk.at('test-files', id)
const names = (disk: MemoryDirectory, id: string) => [...sessionFolder(disk, id).children.keys()].sort()

describe('the OPFS file journal', () => {
  it('300 files from one command are one write, and stored before the command answers', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    await first.workspace.persisted()
    const before = names(disk, 's')
    await run(first.workspace, 'mkdir -p many && for i in $(seq 1 300); do echo "file $i" > many/f$i.txt; done')
    // No persisted(): the answer itself waited for the store, as a reload right after would need.
    expect(names(disk, 's').filter((name) => !before.includes(name))).toEqual(['j-000000000002'])
    const again = await load(disk, 's')
    expect(await run(again.workspace, 'ls many | wc -l; cat many/f1.txt many/f300.txt')).toBe('300\nfile 1\nfile 300\n')
  })

  it('a load reads the entries since the last base all at once, not one after another', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    for (const n of [1, 2, 3]) await run(first.workspace, `echo ${n} > f${n}.txt`)
    await first.workspace.persisted()
    let reading = 0
    let most = 0
    disk.faults.readWhole = async () => {
      most = Math.max(most, ++reading)
      await new Promise((resolve) => setTimeout(resolve, 0))
      reading--
    }
    const again = await load(disk, 's')
    expect(await run(again.workspace, 'cat README.md f1.txt f2.txt f3.txt')).toBe('# seed\n1\n2\n3\n')
    expect(most).toBe(4) // the base and the three entries after it, read together
  })

  it('an 8 MB file and a small one beside it come back after the command answers', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    await run(first.workspace, 'printf "%01048576d" 0 > m && cat m m m m m m m m > big.txt && rm m && echo small > small.txt')
    const again = await load(disk, 's')
    expect(await run(again.workspace, 'wc -c < big.txt; cat small.txt')).toBe('8388608\nsmall\n')
  })

  it('a write cut off by a closing tab is rolled back as a whole: every file as before it', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    await run(first.workspace, 'echo one > a.txt && echo one > b.txt')
    disk.faults.hangWrite = (name) => name.startsWith('j-')
    void first.workspace.exec(input('echo two > a.txt && echo two > b.txt && echo new > c.txt'))
    // The tab closes now: the entry exists, empty, as Chromium leaves a file whose write never closed.
    await expect.poll(() => names(disk, 's')).toContain('j-000000000003')
    first.workspace.dispose()
    disk.faults.hangWrite = undefined

    const again = await load(disk, 's')
    expect(await run(again.workspace, 'cat a.txt b.txt; ls')).toBe('one\none\nREADME.md\na.txt\nb.txt\n')
    expect(again.notices).toEqual([])
    await again.workspace.persisted()
    expect(names(disk, 's')).not.toContain('j-000000000003') // the cut entry is gone…
    await run(again.workspace, 'echo three > a.txt') // …and its gen serves the next change
    expect(await run((await load(disk, 's')).workspace, 'cat a.txt')).toBe('three\n')
  })

  it('a record that rotted on disk comes back as its last good version, named on screen at load', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    await run(first.workspace, 'echo "good version" > notes.txt')
    await run(first.workspace, 'echo "newer version" > notes.txt && echo other > other.txt')
    const entry = sessionFolder(disk, 's').children.get('j-000000000003') as MemoryFile
    const at = new TextDecoder().decode(entry.bytes).indexOf('newer version')
    entry.bytes[at]! ^= 0x20 // one flipped bit in the body

    const again = await load(disk, 's')
    expect(again.notices).toEqual(['fxterm: 1 stored file could not be read and its last good version came back: /workspace/notes.txt.'])
    expect(await run(again.workspace, 'cat notes.txt other.txt')).toContain('good version\nother\n')
    await again.workspace.persisted()
    // The state that came back was stored again as a whole: the next load is clean.
    const third = await load(disk, 's')
    expect(third.notices).toEqual([])
    expect(await run(third.workspace, 'cat notes.txt')).toBe('good version\n')
  })

  it('a rotted record with no earlier version is set aside by path; a damaged list of paths is counted', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    await run(first.workspace, 'echo fresh > fresh.txt')
    await run(first.workspace, 'echo kept > kept.txt')
    const folder = sessionFolder(disk, 's')
    const fresh = folder.children.get('j-000000000002') as MemoryFile
    fresh.bytes[new TextDecoder().decode(fresh.bytes).indexOf('fresh\n')]! ^= 1
    const kept = folder.children.get('j-000000000003') as MemoryFile
    kept.bytes[2]! ^= 1 // inside the header
    const again = await load(disk, 's')
    expect(again.notices).toEqual([
      'fxterm: 1 stored file could not be read and was set aside: /workspace/fresh.txt (no earlier version was kept); a stored change could not be read, so the files it changed are as before it.',
    ])
    expect(await run(again.workspace, 'ls')).toMatch(/^README.md\n/) // the next command's stderr tells the model too
  })

  it('a full disk: told on screen at once, and a reload has the last complete state', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    await run(first.workspace, 'echo kept > a.txt')
    disk.faults.failWrite = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    await run(first.workspace, 'echo lost > a.txt && echo lost > b.txt')
    // Told as the command answers, not only on the next command's stderr.
    expect(first.notices).toEqual(['fxterm: the workspace files could not be stored (The quota has been exceeded.); they stay in this tab until it closes, and what was stored before is kept'])
    expect(await run(first.workspace, 'echo later > c.txt; cat a.txt')).toContain('lost\n')
    disk.faults.failWrite = undefined
    const again = await load(disk, 's')
    expect(await run(again.workspace, 'cat a.txt; ls')).toBe('kept\nREADME.md\na.txt\n')
  })

  it('the journal is folded into a base, keeping the one before it; every file still comes back', async () => {
    const disk = new MemoryDirectory()
    const first = await load(disk, 's', 'fork')
    for (let i = 1; i <= 120; i++) await run(first.workspace, `echo ${i} > n.txt && echo ${i} > f${i % 7}.txt`)
    await first.workspace.persisted()
    const kept = names(disk, 's')
    expect(kept.filter((name) => name.startsWith('b-'))).toHaveLength(2)
    expect(kept.length).toBeLessThanOrEqual(2 * 50 + 2) // at most two bases and the changes after the older one
    const again = await load(disk, 's')
    expect(await run(again.workspace, 'cat n.txt f1.txt f0.txt')).toBe('120\n120\n119\n')
  })

  it('a session stored in the older one-file-per-record layout comes back and is moved to the journal', async () => {
    const disk = new MemoryDirectory()
    const folder = await (await disk.getDirectoryHandle('test-files', { create: true })).getDirectoryHandle('s', { create: true })
    const put = async (name: string, text: string) => ((await folder.getFileHandle(name, { create: true })).bytes = new TextEncoder().encode(text))
    await put('f-0000000000000001', '{"path":"/workspace/old.txt","kind":"file","text":true}\nfrom before\n')
    await put('h-1-0000000000000001', '{"path":"/workspace/old.txt","turn":1,"kind":"none"}\n')
    const again = await load(disk, 's')
    expect(await run(again.workspace, 'cat old.txt')).toBe('from before\n')
    await again.workspace.persisted()
    expect(names(disk, 's').every((name) => /^[jb]-/.test(name))).toBe(true)
    expect(await run((await load(disk, 's')).workspace, 'cat old.txt')).toBe('from before\n')
  })

  it('a closing tab is asked to wait only while a write is on its way', async () => {
    const disk = new MemoryDirectory()
    const listeners: string[] = []
    const target = { addEventListener: (type: string) => listeners.push(`+${type}`), removeEventListener: (type: string) => listeners.push(`-${type}`) }
    const { createCloseGuard } = await import('./close-guard')
    const hold = createCloseGuard(target as never)
    hold(true)
    hold(true)
    hold(false)
    expect(listeners).toEqual(['+beforeunload', '-beforeunload'])
    expect(await openOpfsStoredFiles('test', async () => asHandle(disk)).load('none')).toBeNull()
  })
})
