/**
 * Tests only: a native repository to stand behind the GitHub mock, an in-memory workspace for
 * the fxterm side, and a way to copy that workspace to disk so native git can judge what
 * fxterm's GitHub path left there (`git fsck`, `git status`).
 */

import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InMemoryFs, type IFileSystem } from 'just-bash/browser'
import { nativeGit } from './git-harness'
import { createGithubMock, type GithubMock } from './github-mock'
import { cloneFromGithub } from '../../src/bash-worker/git/github/github-clone'

export type GithubFixture = { native: ReturnType<typeof nativeGit>; mock: GithubMock; fs: IFileSystem; dispose(): void }

/** A native repository `main` with two commits (files, a subdirectory, binary bytes, an executable, a symlink) in zones other than UTC. */
export function githubFixture(): GithubFixture {
  const native = nativeGit()
  const ok = (line: string) => {
    const ran = native.run(line)
    if (ran.exitCode !== 0) throw new Error(`${line}: ${ran.stderr}`)
    return ran.stdout
  }
  ok('git init -q -b main')
  ok("mkdir -p src/deep && printf 'hello\\n' > README.md && printf '\\000\\001\\377\\n' > bin.dat && printf 'deep\\n' > src/deep/a.txt")
  ok("printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod +x run.sh && ln -s README.md link && printf 'x\\n' > src/b.txt")
  ok("git add -A && GIT_AUTHOR_DATE='1700000000 +0200' GIT_COMMITTER_DATE='1700000000 +0200' git commit -q -m 'first'")
  ok("printf 'two\\n' >> README.md && git add -A && GIT_AUTHOR_DATE='1700000100 +0530' GIT_COMMITTER_DATE='1700000200 -0800' git commit -q -m 'second' -m 'with a body'")
  const mock = createGithubMock(native.dir, 'octo', 'demo')
  return { native, mock, fs: new InMemoryFs(), dispose: native.dispose }
}

/** Copies `dir` of `fs` to a new temporary directory (symlinks and modes kept); returns its path. */
export async function toDisk(fs: IFileSystem, dir: string): Promise<{ path: string; git(line: string): string; dispose(): void }> {
  const out = mkdtempSync(join(tmpdir(), 'fxterm-gh-out-'))
  const copy = async (from: string, to: string): Promise<void> => {
    for (const name of await fs.readdir(from)) {
      const path = `${from}/${name}`
      const stat = await fs.lstat(path)
      if (stat.isSymbolicLink) symlinkSync(await fs.readlink(path), join(to, name))
      else if (stat.isDirectory) {
        mkdirSync(join(to, name))
        await copy(path, join(to, name))
      } else writeFileSync(join(to, name), await fs.readFileBuffer(path), { mode: stat.mode & 0o777 })
    }
  }
  await copy(dir, out)
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: out, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LANG: 'C' }
  return {
    path: out,
    git: (line) => execFileSync('/bin/bash', ['-c', line], { cwd: out, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }),
    dispose: () => rmSync(out, { recursive: true, force: true }),
  }
}

/** A fixture whose repository octo/demo is already cloned into `dir` of its in-memory fs; `dispose` goes to `disposers`. */
export async function clonedGithubFixture(dir: string, disposers: Array<() => void>): Promise<GithubFixture> {
  const fixture = githubFixture()
  disposers.push(fixture.dispose)
  await cloneFromGithub({ fs: fixture.fs, dir, repo: { owner: 'octo', repo: 'demo' }, fetch: fixture.mock.server })
  return fixture
}
