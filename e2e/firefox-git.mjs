// The Firefox smoke's git case (issue 34): clone from a local smart-HTTP server (the system's
// `git http-backend`), commit, and a push that waits for the person's "Push" in the dialog;
// native git on the server side checks the pushed commit.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHttpServer } from '../mock-servers/git-http-server.mjs'

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_CONFIG_GLOBAL: '/dev/null' }
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' })

function run(page, command) {
  return page.evaluate(
    (line) => window.fxterm.workspace.exec({ command: line, cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 }),
    command,
  )
}

export async function gitCase(page) {
  const root = mkdtempSync(join(tmpdir(), 'fx-firefox-git-'))
  const work = join(root, 'work')
  mkdirSync(work)
  git(work, 'init', '-q', '-b', 'main')
  writeFileSync(join(work, 'README.md'), '# firefox\n')
  git(work, 'add', '-A')
  git(work, 'commit', '-q', '-m', 'first commit')
  git(root, 'clone', '-q', '--bare', work, join(root, 'repos/ff.git'))
  const server = await startGitHttpServer({ root: join(root, 'repos') })
  try {
    const cloned = await run(page, `git clone ${server.url}/ff.git && cd ff && echo "from firefox" > ff.txt && git add ff.txt && git commit -q -m "firefox commit" && git log --format=%s`)
    if (cloned.exitCode !== 0 || cloned.stdout !== 'firefox commit\nfirst commit\n') throw new Error(`Firefox: clone and commit gave ${JSON.stringify(cloned)}`)
    const pushing = run(page, 'cd ff && git push')
    await page.waitForSelector('dialog.fxterm-push-dialog', { timeout: 10_000 })
    const asked = await page.evaluate(() => document.querySelector('dialog.fxterm-push-dialog')?.textContent ?? '')
    if (!asked.includes('firefox commit')) throw new Error(`Firefox: the push dialog did not list the commit: ${asked}`)
    await page.evaluate(() => [...document.querySelectorAll('dialog.fxterm-push-dialog button')].find((b) => b.textContent === 'Push')?.click())
    const pushed = await pushing
    if (pushed.exitCode !== 0) throw new Error(`Firefox: git push gave ${JSON.stringify(pushed)}`)
    const onServer = git(join(root, 'repos/ff.git'), 'log', '--format=%s', 'main')
    if (onServer !== 'firefox commit\nfirst commit\n') throw new Error(`Firefox: the server has ${JSON.stringify(onServer)}`)
    git(join(root, 'repos/ff.git'), 'fsck', '--strict')
  } finally {
    await server.close()
    rmSync(root, { recursive: true, force: true })
  }
}
