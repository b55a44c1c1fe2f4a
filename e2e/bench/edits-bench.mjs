// The agent's file edits and /diff, in the app's page (part `edits`):
// - edit_file on a 1 MB file through the workspace (page → bash worker write → snapshot, the
//   change history and the diff for the row), next to writing the same 1 MB file through the
//   workspace's writeFiles (the same round trip and write with none of the edit's work);
// - /diff of 100 changed 10 KB files, from Enter to its first row on screen (the diff is long, so
//   it opens in the full-screen view), next to the workspace computing the same diff alone.
// Everything is timed in the page, so Playwright's round trips never count.
import { median, ms, pad, times, verdict } from './stats.mjs'

const RUNS = 9
const DIFF_RUNS = 5
const EDIT_TARGET_MS = 50
const DIFF_TARGET_MS = 200
const BIG_BYTES = 1024 * 1024
const DIFF_FILES = 100
const DIFF_FILE_BYTES = 10 * 1024

/** In the page: a 1 MB file of numbered lines, written through the workspace. */
async function seedBigFile({ bytes }) {
  const workspace = window.fxterm.workspace
  const lines = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const line = `line ${i} the quick brown fox jumps over the lazy dog\n`
    lines.push(line)
    size += line.length
  }
  const data = new TextEncoder().encode(lines.join('').slice(0, bytes))
  const { written } = await workspace.writeFiles([{ path: 'big.txt', data }])
  if (written.length !== 1) throw new Error('could not write big.txt')
  window.fxEditsBench = { data }
}

/** In the page: ms per edit_file of one unique line of big.txt (lines `from`…), and per writeFiles of the same file. */
async function timeEdits({ runs, from }) {
  const workspace = window.fxterm.workspace
  const edits = []
  const writes = []
  for (let i = 0; i < runs; i++) {
    const args = JSON.stringify({ path: 'big.txt', old_string: `line ${from + i} the`, new_string: `LINE ${from + i} the` })
    let started = performance.now()
    const answer = await workspace.workspaceOp({ op: 'file', name: 'edit_file', arguments: args, cwd: '/workspace', apply: true })
    edits.push(performance.now() - started)
    if (!answer?.ok) throw new Error(`edit_file failed: ${answer?.result}`)
    started = performance.now()
    await workspace.writeFiles([{ path: 'raw-copy.txt', data: window.fxEditsBench.data }])
    writes.push(performance.now() - started)
  }
  return { edits, writes }
}

/** In the page: 100 files of 10 KB, then one command that changes every one (a turn's change). */
async function seedDiffFiles({ files, bytes }) {
  const workspace = window.fxterm.workspace
  const encoder = new TextEncoder()
  const list = []
  for (let f = 0; f < files; f++) {
    const lines = []
    for (let size = 0, i = 0; size < bytes; i++) {
      const line = `file ${f} row ${i}: some text that stays the same\n`
      lines.push(line)
      size += line.length
    }
    list.push({ path: `many/f${f}.txt`, data: encoder.encode(lines.join('').slice(0, bytes)) })
  }
  await workspace.writeFiles(list)
  const signal = new AbortController().signal
  const result = await workspace.exec({ command: "sed -i 's/row 50:/ROW 50:/' many/*.txt", cwd: '/workspace', signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
  if (result.exitCode !== 0) throw new Error(`sed failed: ${result.stderr}`)
}

/** In the page: ms from Enter on `/diff` to its first row in the terminal, and the diff computed alone. */
async function timeDiff({ title }) {
  const term = window.fxterm.term
  const shown = () => {
    const buffer = term.buffer.active
    for (let i = 0; i < buffer.length; i++) if (buffer.getLine(i)?.translateToString(true).includes(title)) return true
    return false
  }
  const started = performance.now()
  const onScreen = new Promise((resolve) => {
    const watch = term.onWriteParsed(() => {
      if (term.buffer.active.type === 'alternate' && shown()) {
        watch.dispose()
        resolve(performance.now() - started)
      }
    })
  })
  term.input('/diff\r', true)
  const screenMs = await onScreen
  term.input('q', true)
  const opStarted = performance.now()
  const answer = await window.fxterm.workspace.workspaceOp({ op: 'diff', scope: 'all' })
  const opMs = performance.now() - opStarted
  return { screenMs, opMs, files: answer.files }
}

export async function benchEdits(browser, baseUrl) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(`${baseUrl}/`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.workspace && window.fxterm?.term), undefined, { timeout: 30_000 })
    await tab.evaluate(seedBigFile, { bytes: BIG_BYTES })
    await tab.evaluate(timeEdits, { runs: 1, from: 100 }) // warm-up: not counted
    const { edits, writes } = await tab.evaluate(timeEdits, { runs: RUNS, from: 1000 })
    // A fresh page, so the diff holds the 100 files and nothing of the edits above.
    await tab.goto(`${baseUrl}/`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.workspace && window.fxterm?.term), undefined, { timeout: 30_000 })
    await tab.evaluate(seedDiffFiles, { files: DIFF_FILES, bytes: DIFF_FILE_BYTES })
    const title = 'Changes since the session started'
    const diffs = []
    for (let i = 0; i < DIFF_RUNS; i++) {
      await tab.waitForFunction(() => window.fxterm.term.buffer.active.type === 'normal')
      diffs.push(await tab.evaluate(timeDiff, { title }))
    }
    const editMs = median(edits)
    const writeMs = median(writes)
    const screenMs = median(diffs.map((d) => d.screenMs))
    const opMs = median(diffs.map((d) => d.opMs))
    return {
      edit: { ms: editMs, rawWriteMs: writeMs, ratio: editMs / writeMs, targetMs: EDIT_TARGET_MS, ok: editMs <= EDIT_TARGET_MS },
      diff: { files: diffs[0]?.files ?? 0, screenMs, opMs, ratio: screenMs / opMs, targetMs: DIFF_TARGET_MS, ok: screenMs <= DIFF_TARGET_MS },
    }
  } finally {
    await context.close()
  }
}

export function editsLines(result) {
  const { edit, diff } = result
  return [
    `file edits (median of ${RUNS} edits, ${DIFF_RUNS} /diffs)`,
    `  ${pad('edit_file on a 1 MB file', 36)} ${pad(ms(edit.ms), 10)} (target ≤ ${edit.targetMs} ms) ${verdict(edit.ok)}`,
    `  ${pad('', 36)} writeFiles of the same 1 MB: ${ms(edit.rawWriteMs)} (edit is ${times(edit.ratio)})`,
    `  ${pad(`/diff of ${diff.files} changed 10 KB files on screen`, 36)} ${pad(ms(diff.screenMs), 10)} (target ≤ ${diff.targetMs} ms) ${verdict(diff.ok)}`,
    `  ${pad('', 36)} the same diff computed alone: ${ms(diff.opMs)} (on screen is ${times(diff.ratio)})`,
  ]
}
