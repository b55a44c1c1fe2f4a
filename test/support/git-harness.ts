/**
 * Tests only: runs the same shell lines in fxterm's bash session and in a temporary directory
 * with the machine's native git, so a test can compare what each printed and left behind.
 * Both get the same author, committer and dates, so commit ids agree too.
 */

import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBashSession, type BashSession } from '../../src/bash-worker/bash-session'
import type { GitHost, PushPlan } from '../../src/shared/workspace/git/git-host'

export const GIT_ENV: Record<string, string> = {
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_DATE: '1700000000 +0000',
}

export type Ran = { stdout: string; stderr: string; exitCode: number }

/**
 * fxterm's side: a fresh bash session whose lines run in /workspace with GIT_ENV exported. Its
 * page (the git host) says yes to every push unless `approve` says otherwise; `asked` lists
 * the questions put to the person.
 */
export async function fxGit(options: { approve?: (plan: PushPlan) => boolean; githubFetch?: GitHost['githubFetch'] } = {}): Promise<{
  session: BashSession
  asked: PushPlan[]
  run(line: string): Promise<Ran>
}> {
  const asked: PushPlan[] = []
  const gitHost: GitHost = {
    approvePush: async (plan) => (asked.push(plan), options.approve?.(plan) ?? true),
    githubFetch: options.githubFetch ?? (() => Promise.reject(new Error('no GitHub in this test'))),
  }
  const session = await createBashSession({ gitHost })
  const exports = Object.entries(GIT_ENV).map(([k, v]) => `export ${k}='${v}'`).join('; ')
  await session.exec({ command: exports, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 1 << 20 })
  return {
    session,
    asked,
    async run(line) {
      const { stdout, stderr, exitCode } = await session.exec({ command: line, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 1 << 20 })
      return { stdout, stderr, exitCode }
    },
  }
}

/**
 * The native side: a temporary directory where lines run under /bin/bash with GIT_ENV. $HOME
 * (and the global config in it) is a second temporary directory, so `git config --global`
 * writes there: with GIT_CONFIG_GLOBAL=/dev/null, git (run as root) replaced /dev/null itself.
 */
export function nativeGit(): { dir: string; run(line: string): Ran; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'fxterm-git-'))
  const home = mkdtempSync(join(tmpdir(), 'fxterm-git-home-'))
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    LANG: 'C',
    ...GIT_ENV,
  }
  return {
    dir,
    run(line) {
      try {
        const stdout = execFileSync('/bin/bash', ['-c', line], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
        return { stdout, stderr: '', exitCode: 0 }
      } catch (error) {
        const e = error as { stdout?: string; stderr?: string; status?: number }
        return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', exitCode: e.status ?? 1 }
      }
    },
    dispose: () => {
      rmSync(dir, { recursive: true, force: true })
      rmSync(home, { recursive: true, force: true })
    },
  }
}
