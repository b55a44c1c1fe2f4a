// /open on a folder that holds a git repository: its .git comes in whole, `git` works on the real
// repository, and a commit made in the tab is written back to the folder, where native git reads
// it. An Origin Private File System folder stands in for the one the person would pick.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { runSlashCommand, waitForScreen } from '../support/screen.ts'
import { runCommand } from '../support/run-code.ts'

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_CONFIG_GLOBAL: '/dev/null' }
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' })

/** Every file under `dir`, by relative path, as base64. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else out[relative(dir, path)] = readFileSync(path).toString('base64')
    }
  }
  walk(dir)
  return out
}

test('/open on a folder with a repository: git log sees its history, and a commit lands in the folder', async ({ page, mock }) => {
  const dir = mkdtempSync(join(tmpdir(), 'fx-open-git-'))
  try {
    writeFileSync(join(dir, 'app.py'), 'print("hi")\n')
    git(dir, 'init', '-q', '-b', 'main')
    git(dir, 'add', '-A')
    git(dir, 'commit', '-q', '-m', 'first on disk')
    await page.addInitScript((files: Record<string, string>) => {
      Object.assign(window, {
        showDirectoryPicker: async () => {
          const root = await (await navigator.storage.getDirectory()).getDirectoryHandle('repo-folder', { create: true })
          for (const [path, base64] of Object.entries(files)) {
            const parts = path.split('/')
            let parent = root
            for (const part of parts.slice(0, -1)) parent = await parent.getDirectoryHandle(part, { create: true })
            const writable = await (await parent.getFileHandle(parts.at(-1)!, { create: true })).createWritable()
            await writable.write(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)))
            await writable.close()
          }
          return root
        },
      })
    }, filesOf(dir))
    await openWithMock(page, mock)
    await runSlashCommand(page, '/open')
    await waitForScreen(page, 'Opened the folder repo-folder: 1 file read, its git repository with them.')
    expect((await runCommand(page, 'git log --format=%s && git status --short')).stdout).toBe('first on disk\n')

    const made = await runCommand(page, 'echo "print(\\"hello\\")" > app.py && git commit -q -am "changed in the tab" && git log --format=%s')
    expect(made).toMatchObject({ stdout: 'changed in the tab\nfirst on disk\n', exitCode: 0 })
    await page.evaluate(() => (window as unknown as { fxterm: { workspace: { persisted(): Promise<void> } } }).fxterm.workspace.persisted())

    // The folder as the tab left it, back on disk: native git reads the commit.
    const back = await page.evaluate(async () => {
      const out: Record<string, string> = {}
      const walk = async (handle: FileSystemDirectoryHandle, at: string): Promise<void> => {
        for await (const entry of (handle as FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> }).values()) {
          if (entry.kind === 'directory') await walk(entry as FileSystemDirectoryHandle, `${at}${entry.name}/`)
          else {
            const bytes = new Uint8Array(await (await (entry as FileSystemFileHandle).getFile()).arrayBuffer())
            let text = ''
            for (const byte of bytes) text += String.fromCharCode(byte)
            out[`${at}${entry.name}`] = btoa(text)
          }
        }
      }
      await walk(await (await navigator.storage.getDirectory()).getDirectoryHandle('repo-folder'), '')
      return out
    })
    const copy = join(dir, 'back')
    for (const [path, base64] of Object.entries(back)) {
      mkdirSync(dirname(join(copy, path)), { recursive: true })
      writeFileSync(join(copy, path), Buffer.from(base64, 'base64'))
    }
    expect(git(copy, 'log', '--format=%s')).toBe('changed in the tab\nfirst on disk\n')
    expect(git(copy, 'show', 'HEAD:app.py')).toBe('print("hello")\n')
    git(copy, 'fsck', '--strict')
    expect(git(copy, 'status', '--short')).toBe('')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
