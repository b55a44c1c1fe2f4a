// Start-up's timeline for the startup bench: where the time goes between navigation start and
// the engine's first prompt. The page and the engine worker mark each phase's start and end
// (src/shared/start-up-timeline.ts; the worker's marks reach the page with the engine's start);
// the bare xterm.js page marks its own few. Printed as medians of the cold loads, fxterm's next
// to the bare page's, ms from navigation start.
import { median, pad } from './stats.mjs'

/** Each row: what it measures, and its mark (`fxterm:<key>`, or `<key>:start`/`:end` for a phase). */
const ROWS = [
  ['HTML response starts (first byte)', 'first-byte'],
  ["page's first script runs", 'first-script'],
  ["page's code runs (its entry module)", 'page-entry'],
  ['engine worker spawned (page)', 'spawn-worker'],
  ["engine worker's thread starts (worker)", 'worker-thread'],
  ["engine worker's script runs (worker)", 'worker-runs'],
  ['start-up reads, IndexedDB (worker)', 'worker-reads'],
  ["engine host's modules evaluated (worker)", 'worker-host-eval'],
  ['terminal opened: new Terminal, open, fit (page)', 'open-terminal'],
  ['stores read for the boot (page)', 'stores-read'],
  ['boot waits for the stores (type-ahead, page)', 'stores-wait'],
  ['engine.wasm fetched and compiled (worker)', 'wasm-compile'],
  ['engine start: asked, answered (page)', 'engine-start'],
  ['engine boot: start call to host loop up (worker)', 'engine-boot'],
  ["engine's first frame reaches the page", 'first-output'],
  ['first typed key echoed', 'echo'],
  ["engine's prompt drawn", 'prompt'],
]

/** In the page, once it is up: its start-up marks by key, and the HTML's first byte. */
export function readTimeline() {
  const marks = {}
  for (const entry of performance.getEntriesByType('mark')) {
    if (entry.name.startsWith('fxterm:') && !(entry.name.slice(7) in marks)) marks[entry.name.slice(7)] = entry.startTime
  }
  const nav = performance.getEntriesByType('navigation')[0]
  if (nav) marks['first-byte'] = nav.responseStart
  return marks
}

/** In the page: true once the engine worker's marks are on the page's timeline (its start answered). */
export function workerMarksIn() {
  return performance.getEntriesByName('fxterm:engine-start:end').length > 0
}

const at = (loads, name) => {
  const values = loads.map((marks) => marks[name]).filter((value) => typeof value === 'number')
  return values.length > 0 ? median(values) : null
}

/** The median start, end and length of each row, for one page's loads (marks per load). */
export function timelineOf(loads) {
  const rows = {}
  for (const [, key] of ROWS) {
    const start = at(loads, `${key}:start`) ?? at(loads, key)
    const end = at(loads, `${key}:end`)
    const lengths = loads.map((marks) => marks[`${key}:end`] - marks[`${key}:start`]).filter((value) => Number.isFinite(value))
    if (start !== null) rows[key] = { start, end, ms: lengths.length > 0 ? median(lengths) : null }
  }
  return rows
}

const span = (row) => (row ? (row.end === null ? `${row.start.toFixed(0)}` : `${row.start.toFixed(0)} → ${row.end.toFixed(0)} (${row.ms.toFixed(0)})`) : '')

/** The printed table: fxterm's rows in the order they start, the bare page's beside them. */
export function timelineLines(fxterm, bare, runs) {
  const order = ROWS.filter(([, key]) => fxterm[key] || bare[key]).sort(([, a], [, b]) => (fxterm[a]?.start ?? bare[a].start) - (fxterm[b]?.start ?? bare[b].start))
  const lines = [
    `start-up timeline (median of ${runs} cold loads, ms from navigation start; a phase as start → end (length))`,
    `  ${pad('', 50)} ${pad('fxterm', 24)} bare xterm.js page`,
  ]
  for (const [label, key] of order) lines.push(`  ${pad(label, 50)} ${pad(span(fxterm[key]), 24)} ${span(bare[key])}`)
  return lines
}
