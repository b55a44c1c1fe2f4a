/**
 * Tests only: a smart-HTTP git server (mock-servers/git-http-server.mjs) over a temporary
 * directory of bare repositories made with the machine's git, and a way to run native git
 * against them, so a test can check on the server side what a clone, fetch or push did.
 */

import { execFile, execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHttpServer, type GitHttpServer } from '../../mock-servers/git-http-server.mjs'
import { GIT_ENV, type Ran } from './git-harness'

export type GitRemoteFixture = {
  server: GitHttpServer
  /** The directory holding the bare repositories (and scratch work trees). */
  root: string
  /** Runs a bash line with native git in `root` and returns its stdout (throws on failure). */
  sh(line: string): string
  /**
   * Runs a bash line with native git in `root`, without blocking: a native clone or push must
   * not stop this process's event loop, or the server (in this process) cannot answer it.
   */
  native(line: string): Promise<Ran>
  /** Makes `<name>.git` on the server from a work tree built by `setup` (bash, run inside it). */
  repo(name: string, setup: string): string
  close(): Promise<void>
}

export async function startGitRemoteFixture(): Promise<GitRemoteFixture> {
  const root = mkdtempSync(join(tmpdir(), 'fxterm-git-remote-'))
  const server = await startGitHttpServer({ root })
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LANG: 'C',
    ...GIT_ENV,
  }
  const sh = (line: string) => execFileSync('/bin/bash', ['-c', line], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  const native = (line: string) =>
    new Promise<Ran>((resolve) => {
      execFile('/bin/bash', ['-c', line], { cwd: root, env, encoding: 'utf8' }, (error, stdout, stderr) => {
        const status = (error as { code?: unknown } | null)?.code
        resolve({ stdout, stderr, exitCode: error ? (typeof status === 'number' ? status : 1) : 0 })
      })
    })
  return {
    server,
    root,
    sh,
    native,
    repo(name, setup) {
      sh(`git init -q -b main work-${name} && cd work-${name} && ${setup} && cd .. && git clone -q --bare work-${name} ${name}.git`)
      return `${server.url}/${name}.git`
    },
    async close() {
      await server.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
