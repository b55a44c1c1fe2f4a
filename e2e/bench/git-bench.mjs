// git in the tab (part `git`), against a local smart-HTTP server (mock-servers/git-http-server.mjs,
// the system's `git http-backend`) serving a repository of 1,000 files and 10 MB:
// - `git clone` in the page next to native `git clone` of the same URL (the ratio is the figure);
// - `git status` after one changed file, and `git commit -am` of one file (medians, in the page);
// - a reload with that repository stored: the session's files ready for a command, next to a raw
//   read of the same stored bytes (persist-bench.mjs's timeRestore);
// - keystroke echo while clones run one after another in the workspace.
// Times are taken in the page (performance.now around workspace.exec).
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startGitHttpServer } from '../../mock-servers/git-http-server.mjs'
import { median, ms, pad, times, verdict } from './stats.mjs'
import { timeRestore } from './persist-bench.mjs'
import { echoWhile } from './sandbox-bench.mjs'

const FILES = 1000
const FILE_BYTES = 10 * 1024
const RUNS = 5
const TARGETS = { cloneRatio: 5, statusMs: 200, commitMs: 300, reloadRatio: 1.5, echoP95Ms: 16 }

/** A bare repository of FILES files of FILE_BYTES each (varied text, so packs are not trivial). */
function makeRepository(root) {
  const work = join(root, 'work')
  mkdirSync(work, { recursive: true })
  const git = (...args) => execFileSync('git', args, { cwd: work, env: { ...process.env, GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@example.com' } })
  git('init', '-q', '-b', 'main')
  for (let f = 0; f < FILES; f++) {
    const dir = join(work, `src/d${f % 20}`)
    mkdirSync(dir, { recursive: true })
    let text = ''
    for (let line = 0; text.length < FILE_BYTES; line++) text += `export const value_${f}_${line} = ${(f * 7919 + line * 104729) % 1000003} // file ${f} line ${line}\n`
    writeFileSync(join(dir, `f${f}.ts`), text.slice(0, FILE_BYTES))
  }
  git('add', '-A')
  git('commit', '-q', '-m', 'bench repository')
  execFileSync('git', ['clone', '-q', '--bare', work, join(root, 'repos/bench.git')])
}

/** In the page: runs `command`; its wall time and result. */
async function timeCommand({ command }) {
  const started = performance.now()
  const result = await window.fxterm.workspace.exec({ command, cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
  return { ms: performance.now() - started, exitCode: result.exitCode, stderr: result.stderr.slice(0, 300) }
}

async function run(tab, command) {
  const result = await tab.evaluate(timeCommand, { command })
  if (result.exitCode !== 0) throw new Error(`${command} exited ${result.exitCode}: ${result.stderr}`)
  return result.ms
}

const ready = (tab) => tab.waitForFunction(() => Boolean(window.fxterm?.workspace && window.fxterm?.term), undefined, { timeout: 30_000 })

export async function benchGit(browser, baseUrl) {
  const root = mkdtempSync(join(tmpdir(), 'fx-git-bench-'))
  makeRepository(root)
  const server = await startGitHttpServer({ root: join(root, 'repos') })
  const url = `${server.url}/bench.git`
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    const native = []
    for (let i = 0; i < RUNS; i++) {
      const target = join(root, `native-${i}`)
      const started = performance.now()
      // Not execFileSync: the server answering this clone runs in this process's event loop.
      await promisify(execFile)('git', ['clone', '-q', url, target])
      native.push(performance.now() - started)
      rmSync(target, { recursive: true, force: true })
    }

    await tab.goto(`${baseUrl}/`)
    await ready(tab)
    await tab.evaluate(() => window.fxterm.workspace.useSession('bench-git', 'new'))
    await run(tab, 'true') // the shell starts on the first command: not counted
    const clones = []
    for (let i = 0; i < RUNS; i++) {
      await run(tab, 'rm -rf bench')
      clones.push(await run(tab, `git clone -q ${url} bench`))
    }
    const status = []
    const commits = []
    for (let i = 0; i < RUNS * 2; i++) {
      await run(tab, `echo "change ${i}" >> bench/src/d${i % 20}/f${i}.ts`)
      status.push(await run(tab, 'git -C bench status --short'))
      commits.push(await run(tab, `git -C bench commit -q -am "change ${i}"`))
    }
    await tab.evaluate(() => window.fxterm.workspace.persisted())

    const restores = []
    for (let i = 0; i < RUNS; i++) {
      await tab.reload()
      await ready(tab)
      restores.push(await tab.evaluate(timeRestore, { id: 'bench-git' }))
    }
    const echo = await echoWhile(tab, `rm -rf /tmp/echo-clone && git clone -q ${url} /tmp/echo-clone`)

    const cloneMs = median(clones)
    const nativeMs = median(native)
    const restoreMs = median(restores.map((r) => r.restoreMs))
    const rawMs = median(restores.map((r) => r.rawMs))
    return {
      clone: { ms: cloneMs, nativeMs, ratio: cloneMs / nativeMs, ok: cloneMs / nativeMs <= TARGETS.cloneRatio },
      status: { ms: median(status), ok: median(status) <= TARGETS.statusMs },
      commit: { ms: median(commits), ok: median(commits) <= TARGETS.commitMs },
      reload: { ms: restoreMs, rawMs, records: restores[0]?.count ?? 0, ratio: restoreMs / rawMs, ok: restoreMs / rawMs <= TARGETS.reloadRatio },
      echo: { ...echo, ok: echo.p95 <= TARGETS.echoP95Ms },
    }
  } finally {
    await context.close()
    await server.close()
    rmSync(root, { recursive: true, force: true })
  }
}

export function gitLines(result) {
  const { clone, status, commit, reload, echo } = result
  return [
    `git in the tab (a repository of ${FILES} files, ${(FILES * FILE_BYTES) / 1024 / 1024} MB, from a local smart-HTTP server; medians)`,
    `  ${pad('git clone', 44)} ${pad(ms(clone.ms), 10)} native git: ${ms(clone.nativeMs)} (${times(clone.ratio)}, target ≤ ${TARGETS.cloneRatio}×) ${verdict(clone.ok)}`,
    `  ${pad('git status --short after one change', 44)} ${pad(ms(status.ms), 10)} (target ≤ ${TARGETS.statusMs} ms) ${verdict(status.ok)}`,
    `  ${pad('git commit -am of one file', 44)} ${pad(ms(commit.ms), 10)} (target ≤ ${TARGETS.commitMs} ms) ${verdict(commit.ok)}`,
    `  ${pad(`reload: the repository ready (${reload.records} records)`, 44)} ${pad(ms(reload.ms), 10)} raw read: ${ms(reload.rawMs)} (${times(reload.ratio)}, target ≤ ${TARGETS.reloadRatio}×) ${verdict(reload.ok)}`,
    `  ${pad('keystroke echo while clones run', 44)} p50 ${ms(echo.p50)} p95 ${ms(echo.p95)} over ${echo.keys} keys (target p95 ≤ ${TARGETS.echoP95Ms} ms) ${verdict(echo.ok)}`,
  ]
}
