// The workspace files kept with their session, in the app's page (part `persist`):
// - restore: a saved session of 1,000 files (10 MB) made current on a fresh page, until its
//   files are ready for the first command (`useSession` resolves), next to a raw read of the
//   same records from the same storage (the Origin Private File System in Chromium);
// - start-up: the engine's prompt drawn (`fxterm:interactive`) on a reload that resumes a session
//   with those files stored, next to the same session with no files stored, alternated;
// - reload right after a command: a command writes 300 files and an 8 MB one and the page
//   reloads the moment it answers; all of them must be back, and the engine's prompt is timed
//   against a reload with no such files, alternated;
// - one change: a command that rewrites one 10 KB file: the bytes it writes to storage, how long
//   the command takes (its answer waits for the store), and anything still stored after it;
// - keystroke echo (key down → the composer row parsed) while commands that each change 1 MB
//   (100 files of 10 KB) are stored, one after another.
// Everything is timed in the page, so Playwright's round trips never count.
import { median, ms, pad, percentile, times, verdict } from './stats.mjs'
import { installRecorder, waitForPainted } from './echo-bench.mjs'

const FILES = 1000
const FILE_BYTES = 10 * 1024
const RUNS = 7
const RESTORE_RATIO = 1.5
const STARTUP_RATIO = 1.1
const WRITE_RATIO = 2
const PERSIST_TARGET_MS = 20
const ECHO_P95_TARGET_MS = 16
const AFTER_WRITE_RATIO = 1.1
const BACK = '300\n8388608\n' // ls many300 | wc -l; wc -c < big8.bin
const MANY_AND_BIG =
  'mkdir -p many300 && for i in $(seq 1 300); do echo "file $i" > many300/f$i.txt; done && printf "%01048576d" 0 > m && cat m m m m m m m m > big8.bin && rm m'
const TYPED = 'abcdefghijklmnopqrstuvwxyzabcdefghijklmn'
const WARM = 5

const ready = (tab) => tab.waitForFunction(() => Boolean(window.fxterm?.workspace && window.fxterm?.term), undefined, { timeout: 30_000 })

/** In the page: binds `id` (when given) and writes 1,000 files of 10 KB into the current session. */
async function seedSession({ id, files, bytes }) {
  const workspace = window.fxterm.workspace
  if (id) await workspace.useSession(id, 'fork')
  const line = 'some text that a project file might hold, repeated to size\n'
  const body = new TextEncoder().encode(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes))
  for (let start = 0; start < files; start += 100) {
    const batch = []
    for (let f = start; f < Math.min(files, start + 100); f++) batch.push({ path: `many/d${f % 10}/f${f}.txt`, data: body })
    await workspace.writeFiles(batch)
  }
  await workspace.persisted()
}

/** In the page: ms until session `id`'s files are ready, and ms for a raw getAll of its records. */
export async function timeRestore({ id }) {
  const started = performance.now()
  await window.fxterm.workspace.useSession(id, 'open')
  const restoreMs = performance.now() - started
  // The same files read raw from the same storage (the Origin Private File System in Chromium).
  const rawStarted = performance.now()
  const dir = await (await (await navigator.storage.getDirectory()).getDirectoryHandle('fxterm-files')).getDirectoryHandle(encodeURIComponent(id))
  const reads = []
  for await (const handle of dir.values()) reads.push(handle.getFile().then((file) => file.arrayBuffer()))
  const count = (await Promise.all(reads)).length
  return { restoreMs, rawMs: performance.now() - rawStarted, count }
}

/** In the page: a command rewrites one 10 KB file; the bytes stored and ms from its result to stored. */
async function timeOneChange({ run, bytes }) {
  const workspace = window.fxterm.workspace
  // Every byte written to the Origin Private File System (record headers included).
  const write = FileSystemWritableFileStream.prototype.write
  let stored = 0
  FileSystemWritableFileStream.prototype.write = function (data) {
    stored += data instanceof Blob ? data.size : data?.byteLength ?? String(data).length
    return write.call(this, data)
  }
  try {
    if (run === 0) {
      const line = 'a line of a project file, 40 bytes long\n'
      await workspace.writeFiles([{ path: 'one.txt', data: new TextEncoder().encode(line.repeat(bytes / 40)) }])
      await workspace.persisted()
    }
    // Every line's first letter: the whole 10 KB file changes, and nothing else.
    const command = `sed -i 's/^./${'abcdefgh'[run % 8]}/' one.txt`
    const signal = new AbortController().signal
    const started = performance.now()
    const result = await workspace.exec({ command, cwd: '/workspace', signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
    if (result.exitCode !== 0) throw new Error(`the command failed: ${result.stderr}`)
    const returned = performance.now()
    await workspace.persisted()
    return { execMs: returned - started, persistMs: performance.now() - returned, stored }
  } finally {
    FileSystemWritableFileStream.prototype.write = write
  }
}

/** In the page: writes 300 files and an 8 MB one in one command; answers when it has answered. */
async function writeManyAndBig({ command }) {
  const workspace = window.fxterm.workspace
  await workspace.exec({ command: 'rm -rf many300 big8.bin', cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
  const result = await workspace.exec({ command, cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
  if (result.exitCode !== 0) throw new Error(`the command failed: ${result.stderr}`)
}

/** In the page: what came back of writeManyAndBig's files after a reload, once the session's files are in place. */
async function manyAndBigBack({ expected }) {
  const workspace = window.fxterm.workspace
  const signal = new AbortController().signal
  // The page makes the resumed session current a little after the reload: ask until its files
  // are in place (they are, once the answer stops changing to the expected one), for up to 15 s.
  const deadline = performance.now() + 15_000
  let stdout = ''
  do {
    await workspace.readFile({ path: 'README.md' }) // waits for a switch of session under way
    stdout = (await workspace.exec({ command: 'ls many300 | wc -l; wc -c < big8.bin', cwd: '/workspace', signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })).stdout
  } while (stdout !== expected && performance.now() < deadline && (await new Promise((resolve) => setTimeout(resolve, 100, true))))
  return stdout
}

/** In the page: rewrites 100 files of 10 KB and stores the change, again and again, until stopped. */
async function startStoring() {
  const workspace = window.fxterm.workspace
  const signal = new AbortController().signal
  const exec = (command) => workspace.exec({ command, cwd: '/workspace', signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
  await exec('mkdir -p churn && for i in $(seq 1 100); do head -c 10240 /workspace/many/d0/f0.txt > churn/f$i.txt; done')
  await workspace.persisted()
  const load = { stopped: false, busy: [] }
  load.done = (async () => {
    for (let round = 0; !load.stopped; round++) {
      const started = performance.now()
      await exec(`sed -i 's/^./${'xyz'[round % 3]}/' churn/*.txt`)
      await workspace.persisted()
      load.busy.push([started, performance.now()])
    }
  })()
  window.__fxStoring = load
}

/** A reload's `fxterm:interactive` mark (the engine's prompt is drawn). */
async function interactiveAfterReload(tab) {
  await tab.reload()
  await ready(tab)
  return tab.evaluate(() => new Promise((resolve) => {
    const find = () => performance.getEntriesByName('fxterm:interactive')[0]
    const poll = () => (find() ? resolve(find().startTime) : setTimeout(poll, 20))
    poll()
  }))
}

export async function benchPersist(browser, baseUrl) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(`${baseUrl}/`)
    await ready(tab)
    await tab.evaluate(seedSession, { id: 'bench-restore', files: FILES, bytes: FILE_BYTES })
    const restores = []
    for (let i = 0; i < RUNS; i++) {
      await tab.reload()
      await ready(tab)
      restores.push(await tab.evaluate(timeRestore, { id: 'bench-restore' }))
    }

    // A saved conversation (the offline demo's first prompt), then its files: 1,000 × 10 KB.
    await tab.evaluate(() => window.fxterm.term.input("what's in this project?\r", true))
    await tab.waitForFunction(() => window.fxterm.events.some((event) => event.type === 'turn_end'), undefined, { timeout: 60_000 })
    const withFiles = []
    const without = []
    for (let i = 0; i < RUNS; i++) {
      // The files of every session go, then the resumed one writes its own again: alternated.
      await tab.evaluate(async () => (await navigator.storage.getDirectory()).removeEntry('fxterm-files', { recursive: true }).catch(() => undefined))
      without.push(await interactiveAfterReload(tab))
      await tab.evaluate(seedSession, { files: FILES, bytes: FILE_BYTES })
      withFiles.push(await interactiveAfterReload(tab))
    }

    // A reload the moment a command that wrote 300 files and 8 MB answers, against one without.
    const afterWrite = []
    const plain = []
    const back = []
    for (let i = 0; i < RUNS; i++) {
      plain.push(await interactiveAfterReload(tab))
      await tab.evaluate(manyAndBigBack, { expected: '0\n' }) // the session's files are in place before the next command
      await tab.evaluate(writeManyAndBig, { command: MANY_AND_BIG })
      afterWrite.push(await interactiveAfterReload(tab))
      back.push(await tab.evaluate(manyAndBigBack, { expected: BACK }))
      await tab.evaluate(writeManyAndBig, { command: 'true' }) // the next "plain" reload has no such files
    }
    const allBack = back.filter((out) => out === BACK).length
    if (allBack < RUNS) console.error(`persist bench: after a reload the files were ${JSON.stringify(back)}`)

    // Echo while 1 MB changes are stored one after another.
    await tab.evaluate(startStoring)
    await tab.locator('.xterm-helper-textarea').focus()
    await tab.evaluate(installRecorder, { typed: TYPED, mode: 'composer' })
    for (let i = 0; i < TYPED.length; i++) {
      await tab.keyboard.press(TYPED[i])
      await tab.evaluate(waitForPainted, { count: i + 1, timeoutMs: 5_000 })
    }
    const { rec, busy } = await tab.evaluate(async () => {
      window.__fxStoring.stopped = true
      await window.__fxStoring.done
      return { rec: window.__fxEcho, busy: window.__fxStoring.busy }
    })
    const echoes = rec.parsed.slice(WARM, TYPED.length).map((at, i) => at - rec.downs[WARM + i])
    const typingMs = rec.painted[TYPED.length - 1] - rec.downs[WARM]
    const storesWhileTyping = busy.filter(([a, b]) => b >= rec.downs[WARM] && a <= rec.painted[TYPED.length - 1]).length
    await tab.keyboard.press('Control+u')

    const changes = []
    for (let i = 0; i < RUNS + 1; i++) changes.push(await tab.evaluate(timeOneChange, { run: i, bytes: FILE_BYTES }))
    changes.shift() // the first one starts the shell: not counted
    const restoreMs = median(restores.map((r) => r.restoreMs))
    const rawMs = median(restores.map((r) => r.rawMs))
    const startWith = median(withFiles)
    const startWithout = median(without)
    const storedBytes = median(changes.map((c) => c.stored))
    const persistMs = median(changes.map((c) => c.persistMs))
    const execMs = median(changes.map((c) => c.execMs))
    const startAfter = median(afterWrite)
    const startPlain = median(plain)
    return {
      afterWrite: { withMs: startAfter, withoutMs: startPlain, ratio: startAfter / startPlain, back: allBack, runs: RUNS, ok: allBack === RUNS && startAfter / startPlain <= AFTER_WRITE_RATIO },
      restore: { files: restores[0]?.count ?? 0, ms: restoreMs, rawMs, ratio: restoreMs / rawMs, ok: restoreMs / rawMs <= RESTORE_RATIO },
      startup: { withMs: startWith, withoutMs: startWithout, ratio: startWith / startWithout, ok: startWith / startWithout <= STARTUP_RATIO },
      change: { storedBytes, ratio: storedBytes / FILE_BYTES, execMs, persistMs, ok: storedBytes / FILE_BYTES <= WRITE_RATIO && persistMs <= PERSIST_TARGET_MS },
      echo: { p50: percentile(echoes, 50), p95: percentile(echoes, 95), keys: echoes.length, storesWhileTyping, typingMs, ok: percentile(echoes, 95) <= ECHO_P95_TARGET_MS && storesWhileTyping > 0 },
    }
  } finally {
    await context.close()
  }
}

export function persistLines(result) {
  const { restore, startup, afterWrite, change, echo } = result
  return [
    `files kept with their session (median of ${RUNS})`,
    `  ${pad(`restore 10 MB (${restore.files} records), ready for a command`, 44)} ${pad(ms(restore.ms), 10)} raw read: ${ms(restore.rawMs)} (${times(restore.ratio)}, target ≤ ${RESTORE_RATIO}×) ${verdict(restore.ok)}`,
    `  ${pad('engine prompt drawn on a reload, 10 MB stored', 44)} ${pad(ms(startup.withMs), 10)} none stored: ${ms(startup.withoutMs)} (${times(startup.ratio)}, target ≤ ${STARTUP_RATIO}×) ${verdict(startup.ok)}`,
    `  ${pad('reload as a 300-file + 8 MB command answers', 44)} ${pad(ms(afterWrite.withMs), 10)} no such files: ${ms(afterWrite.withoutMs)} (${times(afterWrite.ratio)}, target ≤ ${AFTER_WRITE_RATIO}×), all back ${afterWrite.back}/${afterWrite.runs} ${verdict(afterWrite.ok)}`,
    `  ${pad('a command rewrites one 10 KB file', 44)} stored ${change.storedBytes} bytes (${times(change.ratio)} the file, target ≤ ${WRITE_RATIO}×), the command took ${ms(change.execMs)} with its store, ${ms(change.persistMs)} still to store after it (target ≤ ${PERSIST_TARGET_MS} ms) ${verdict(change.ok)}`,
    `  ${pad('keystroke echo while 1 MB changes are stored', 44)} p50 ${ms(echo.p50)} p95 ${ms(echo.p95)} over ${echo.keys} keys (target p95 ≤ ${ECHO_P95_TARGET_MS} ms), ${echo.storesWhileTyping} stores during ${ms(echo.typingMs)} of typing ${verdict(echo.ok)}`,
  ]
}
