// git in the tab, against the built page: a clone from a local smart-HTTP server (the system's
// `git http-backend`), commits, a push that waits for the person's yes in a dialog (checked on
// the server with native git), a reload that keeps the repository, and /new without it; then a
// GitHub repository through its REST API (routed to a mock built from a real repository), with
// the token from /key github sent to api.github.com only.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { pressEnter, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen } from '../support/screen.ts'
import { runCommand } from '../support/run-code.ts'
import { textReply } from '../support/chunks.ts'
import { startGitHttpServer, type GitHttpServer } from '../../mock-servers/git-http-server.mjs'
import { createGithubMock, type GithubMock } from '../../test/support/github-mock.ts'

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_CONFIG_GLOBAL: '/dev/null' }
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' })

let root: string
let server: GitHttpServer

/** A bare repository `demo.git` with one commit of two files. */
function makeRemote(dir: string): void {
  const work = join(dir, 'work')
  mkdirSync(work, { recursive: true })
  git(work, 'init', '-q', '-b', 'main')
  writeFileSync(join(work, 'README.md'), '# demo\n')
  writeFileSync(join(work, 'greet.js'), "console.log('hello')\n")
  git(work, 'add', '-A')
  git(work, 'commit', '-q', '-m', 'first commit')
  git(dir, 'clone', '-q', '--bare', work, join(dir, 'repos/demo.git'))
}

test.beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'fx-git-e2e-'))
  makeRemote(root)
  server = await startGitHttpServer({ root: join(root, 'repos') })
})

test.afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

const remoteLog = () => git(join(root, 'repos/demo.git'), 'log', '--format=%s', 'main')

async function push(page: Page, answer: 'Push' | 'Cancel'): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const pushing = runCommand(page, 'cd demo && git push origin main')
  const dialog = page.locator('dialog.fxterm-push-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText(`${server.url}/demo.git`)
  await expect(dialog).toContainText('add notes')
  await dialog.getByRole('button', { name: answer }).click()
  return pushing
}

test('clone, commit, and a push that waits for the person; a reload keeps the repository', async ({ page, mock }) => {
  await openWithMock(page, mock)
  await submitPrompt(page, `!git clone ${server.url}/demo.git`)
  await waitForScreen(page, "Cloning into 'demo'")
  expect((await runCommand(page, 'ls demo && git -C demo log --oneline')).stdout).toMatch(/README\.md\ngreet\.js\n[0-9a-f]{7} first commit\n/)

  expect((await runCommand(page, 'cd demo && echo "- pushed from the tab" > notes.md && git add notes.md && git commit -q -m "add notes" && git status --short')).exitCode).toBe(0)

  // No: nothing reaches the server, and the command says the person declined.
  const declined = await push(page, 'Cancel')
  expect(declined.exitCode).not.toBe(0)
  expect(declined.stderr).toMatch(/declined/)
  expect(remoteLog()).toBe('first commit\n')

  // Yes: the server has the commit, and native git finds the repository sound.
  const pushed = await push(page, 'Push')
  expect(pushed.exitCode).toBe(0)
  expect(remoteLog()).toBe('add notes\nfirst commit\n')
  git(join(root, 'repos/demo.git'), 'fsck', '--strict')
  expect(git(join(root, 'repos/demo.git'), 'show', 'main:notes.md')).toBe('- pushed from the tab\n')
  expect(await mock.requests()).toEqual([])

  await page.reload()
  await waitForScreen(page, 'Cloning into')
  expect((await runCommand(page, 'git -C demo log --format=%s')).stdout).toBe('add notes\nfirst commit\n')
  expect((await runCommand(page, 'git -C demo status --short')).stdout).toBe('')

  // /new: the seed files again, once the new session's first prompt makes it a session.
  await mock.script({ chunks: textReply('A fresh start.') })
  await runSlashCommand(page, '/new')
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'A fresh start.')
  expect((await runCommand(page, 'ls demo')).exitCode).not.toBe(0)
})

/** Routes GitHub's API and raw host to `github`, answering CORS as GitHub does. */
async function routeGithub(page: Page, github: GithubMock): Promise<void> {
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization, content-type, accept, x-github-api-version', 'access-control-allow-methods': 'GET, POST, PATCH, OPTIONS' }
  for (const host of ['https://api.github.com/**', 'https://raw.githubusercontent.com/**']) {
    await page.route(host, async (route) => {
      const request = route.request()
      if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors })
      const body = request.postDataBuffer()
      const response = await github.server(request.url(), { method: request.method(), headers: await request.allHeaders(), ...(body ? { body: body.toString('utf8') } : {}) })
      const headers: Record<string, string> = { ...cors }
      response.headers.forEach((value, name) => (headers[name] = value))
      return route.fulfill({ status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) })
    })
  }
}

test('a GitHub repository through its API: clone with /clone, push after a yes, gh pr create; the token goes to api.github.com only', async ({ page, mock }) => {
  const dir = mkdtempSync(join(tmpdir(), 'fx-github-e2e-'))
  try {
    git(dir, 'init', '-q', '-b', 'main')
    writeFileSync(join(dir, 'README.md'), '# city-greeter\n')
    git(dir, 'add', '-A')
    git(dir, 'commit', '-q', '-m', 'first commit')
    const github = createGithubMock(dir, 'ada', 'city-greeter')
    await routeGithub(page, github)
    await openWithMock(page, mock)

    await runSlashCommand(page, '/key github')
    await typeInTerminal(page, 'ghp_e2eToken0123456789abcdefghijklmnopqr')
    await pressEnter(page)
    await waitForScreen(page, 'sent only to api.github.com')

    await submitPrompt(page, '/clone ada/city-greeter')
    await waitForScreen(page, "Cloning into 'city-greeter'")
    const head = (await runCommand(page, 'git -C city-greeter rev-parse HEAD')).stdout.trim()
    expect(head).toBe(github.git(['rev-parse', 'main']).trim())

    await runCommand(page, 'cd city-greeter && git switch -q -c feature && echo hi > hi.txt && git add hi.txt && git commit -q -m "add notes"')
    const pushing = runCommand(page, 'cd city-greeter && git push -u origin feature')
    const dialog = page.locator('dialog.fxterm-push-dialog')
    await expect(dialog).toContainText('https://github.com/ada/city-greeter')
    await dialog.getByRole('button', { name: 'Push' }).click()
    expect((await pushing).exitCode).toBe(0)
    expect(github.git(['rev-parse', 'feature']).trim()).toBe((await runCommand(page, 'git -C city-greeter rev-parse HEAD')).stdout.trim())

    const pr = runCommand(page, 'cd city-greeter && gh pr create --title "Add notes" --body "From the tab."')
    await page.locator('dialog.fxterm-push-dialog').getByRole('button', { name: 'Open pull request' }).click()
    expect((await pr).stdout).toMatch(/^https:\/\/github\.com\/ada\/city-greeter\/pull\/\d+\n$/)

    const withToken = github.requests.filter((r) => r.headers.authorization !== undefined)
    expect(withToken.length).toBeGreaterThan(0)
    expect(withToken.every((r) => new URL(r.url).origin === 'https://api.github.com' && r.headers.authorization === 'Bearer ghp_e2eToken0123456789abcdefghijklmnopqr')).toBe(true)
    expect(JSON.stringify(await mock.requests())).not.toContain('ghp_e2eToken')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
