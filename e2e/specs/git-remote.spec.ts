// git's network side in the built page: `!git clone` from a local smart-HTTP server (the system's
// git http-backend behind mock-servers/git-http-server.mjs, which allows any origin) runs in the
// bash worker, says "Cloning into", and leaves the repository's files in the workspace; fetch
// then brings a commit the server gained, checked against native git on the server side.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHttpServer, type GitHttpServer } from '../../mock-servers/git-http-server.mjs'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { runCommand } from '../support/run-code.ts'
import { submitPrompt, waitForScreen } from '../support/screen.ts'
import { readWorkspaceFile } from '../support/workspace.ts'

let root = ''
let server: GitHttpServer

const ENV = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_COMMITTER_NAME: 'Ada',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
}
/** Native git in the server's directory (local operations only: nothing here goes over HTTP). */
const sh = (line: string) => execFileSync('/bin/bash', ['-c', line], { cwd: root, env: { ...ENV, HOME: root }, encoding: 'utf8' })

test.beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'fxterm-e2e-git-'))
  sh("git init -q -b main work && cd work && echo '# hello from git' > README.md && mkdir src && echo 'print(1)' > src/app.py && git add . && git commit -qm first && cd .. && git clone -q --bare work proj.git")
  server = await startGitHttpServer({ root })
})

test.afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

test('!git clone from a smart-HTTP server says "Cloning into" and brings the files; fetch follows the server', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await submitPrompt(page, `!git clone ${server.url}/proj.git`)
  await waitForScreen(page, "Cloning into 'proj'...")
  await waitForScreen(page, /Ran git clone/)
  expect(await readWorkspaceFile(page, 'proj/README.md')).toBe('# hello from git\n')
  expect(await readWorkspaceFile(page, 'proj/src/app.py')).toBe('print(1)\n')
  expect(await readWorkspaceFile(page, 'proj/.git/HEAD')).toBe('ref: refs/heads/main\n')
  expect(await mock.requests()).toEqual([])

  sh("cd work && echo 'second' >> README.md && git commit -qam second && git push -q ../proj.git main")
  const head = sh('git -C proj.git rev-parse main')
  const fetched = await runCommand(page, 'cd proj && git fetch && cat .git/refs/remotes/origin/main')
  expect(fetched.exitCode).toBe(0)
  expect(fetched.stdout).toBe(head)
  expect(fetched.stderr).toMatch(/^From http:\/\/127\.0\.0\.1:\d+\/proj\n {3}[0-9a-f]{7}\.\.[0-9a-f]{7} {2}main {7}-> origin\/main\n$/)
})
