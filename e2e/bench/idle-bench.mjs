// A page left open (part `idle`): how busy its thread is while nothing happens, next to the bare
// xterm.js page in the same run. What a person feels as a warm phone or a shorter battery, and
// what a page that restyles itself at every frame takes from everything else on two cores. Read
// from Chromium's own counters (CDP Performance metrics: TaskDuration, RecalcStyleCount) over a
// window that starts once the page's idle-time loads (the shell, Python) are long over.
import { median, pad } from './stats.mjs'

/** After the prompt, before the window opens: the shell and Python load at the page's first idle moment. */
const SETTLE_MS = 8_000
const WINDOW_MS = 3_000
const LOADS = 3

const PAGES = { fxterm: '/', bare: '/e2e/bench/bare.html' }

async function idleOnce(browser, url) {
  const context = await browser.newContext()
  const tab = await context.newPage()
  try {
    await tab.goto(url)
    await tab.waitForFunction(() => document.querySelector('.xterm-helper-textarea') !== null, undefined, { timeout: 30_000 })
    await tab.evaluate(() => document.querySelector('.xterm-helper-textarea').focus())
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
    const cdp = await context.newCDPSession(tab)
    await cdp.send('Performance.enable')
    const read = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((metric) => [metric.name, metric.value]))
    const before = await read()
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS))
    const after = await read()
    const perSecond = (name) => ((after[name] - before[name]) * 1000) / WINDOW_MS
    return { busyMsPerS: perSecond('TaskDuration') * 1000, stylesPerS: perSecond('RecalcStyleCount') }
  } finally {
    await context.close()
  }
}

export async function benchIdle(browser, baseUrl) {
  const loads = { fxterm: [], bare: [] }
  for (let i = 0; i < LOADS; i++) for (const [name, path] of Object.entries(PAGES)) loads[name].push(await idleOnce(browser, `${baseUrl}${path}`))
  const summary = (runs) => ({ busyMsPerS: median(runs.map((run) => run.busyMsPerS)), stylesPerS: median(runs.map((run) => run.stylesPerS)), samples: runs })
  return { settleMs: SETTLE_MS, windowMs: WINDOW_MS, fxterm: summary(loads.fxterm), bare: summary(loads.bare) }
}

export function idleLines(result) {
  const row = (name, page) => `  ${pad(name, 44)} ${pad(`${page.busyMsPerS.toFixed(1)} ms/s`, 12)} ${page.stylesPerS.toFixed(1)} style recalcs/s`
  return [
    `a page left open, focused, ${result.settleMs / 1000} s after it loaded (median of ${LOADS} loads, ${result.windowMs / 1000} s each)`,
    row("fxterm: page's thread busy", result.fxterm),
    row("bare xterm.js page: page's thread busy", result.bare),
  ]
}
