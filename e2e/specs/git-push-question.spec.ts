// The push question as a person at the keyboard meets it: `!git push` opens the dialog over the
// terminal, and Ctrl+C there (as in the terminal it stops a command) answers no: nothing reaches
// the server (checked with native git) and the row says the person declined. (That the wait does
// not count against the command's 30 s is tested on fake timers: push-question-clock.test.ts.)
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { submitPrompt, waitForScreen } from '../support/screen.ts'
import { runCommand } from '../support/run-code.ts'
import { startGitHttpServer, type GitHttpServer } from '../../mock-servers/git-http-server.mjs'

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_CONFIG_GLOBAL: '/dev/null' }
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' })

let root: string
let server: GitHttpServer

test.beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'fx-git-question-'))
  const work = join(root, 'work')
  mkdirSync(work, { recursive: true })
  git(work, 'init', '-q', '-b', 'main')
  writeFileSync(join(work, 'README.md'), '# asked\n')
  git(work, 'add', '-A')
  git(work, 'commit', '-q', '-m', 'first commit')
  git(root, 'clone', '-q', '--bare', work, join(root, 'repos/asked.git'))
  server = await startGitHttpServer({ root: join(root, 'repos') })
})

test.afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
})

test('Ctrl+C in the push dialog answers no: nothing is sent, and the row says so', async ({ page, mock }) => {
  await openWithMock(page, mock)
  const setup = `git clone -q ${server.url}/asked.git && cd asked && echo more >> README.md && git -c user.name=Ada -c user.email=ada@example.com commit -qam "second commit"`
  expect((await runCommand(page, setup)).exitCode).toBe(0)

  await submitPrompt(page, '!cd asked && git push')
  const dialog = page.locator('dialog.fxterm-push-dialog')
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('second commit')
  await page.keyboard.press('Control+c')
  await expect(dialog).toHaveCount(0)
  await waitForScreen(page, '· exit 1')
  await waitForScreen(page, 'the person declined this push')
  expect(git(join(root, 'repos/asked.git'), 'log', '--format=%s', 'main')).toBe('first commit\n')
})
