// Demo tape replay: the built-in tour (public/demos/tour.json) played turn by turn on the page,
// each turn timed from Enter to its turn_end event, next to the durations the tape records for
// its responses (`ms`). The target: the replay takes at most 1.2× the recorded time, commands
// included. The bash worker is started first (/files), as it is by a visitor's first command.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const TAPE = fileURLToPath(new URL('../../public/demos/tour.json', import.meta.url))
const TARGET = 1.2
const TIMEOUT_MS = 60_000

const turnEnds = (tab) => tab.evaluate(() => window.fxterm.events.filter((event) => event.type === 'turn_end').length)

export async function benchTape(browser, baseUrl) {
  const tape = JSON.parse(readFileSync(TAPE, 'utf8'))
  const context = await browser.newContext()
  try {
    const tab = await context.newPage()
    await tab.goto(`${baseUrl}/`)
    await tab.waitForFunction(() => Boolean(window.fxterm?.runtime), undefined, { timeout: TIMEOUT_MS })
    await tab.evaluate(() => window.fxterm.runtime.interactive)
    await tab.evaluate(() => window.fxterm.runtime.write('/files\r'))
    await tab.waitForTimeout(1000)
    const turns = []
    for (const turn of tape.turns) {
      const prompt = turn.prompt ?? turn.match[0]
      const before = await turnEnds(tab)
      const started = Date.now()
      await tab.evaluate((text) => window.fxterm.runtime.write(`${text}\r`), prompt)
      const deadline = started + TIMEOUT_MS
      while ((await turnEnds(tab)) === before) {
        if (Date.now() > deadline) throw new Error(`the turn for "${prompt}" did not end within ${TIMEOUT_MS} ms`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      const replayMs = Date.now() - started
      const recordedMs = turn.responses.reduce((sum, response) => sum + (response.ms ?? 0), 0)
      turns.push({ prompt, replayMs, recordedMs, commands: turn.responses.reduce((n, r) => n + (r.toolCalls?.length ?? 0), 0) })
      console.log(`tape turn "${prompt}": replay ${replayMs} ms, recorded ${recordedMs} ms`)
    }
    const replayMs = turns.reduce((sum, t) => sum + t.replayMs, 0)
    const recordedMs = turns.reduce((sum, t) => sum + t.recordedMs, 0)
    return { turns, replayMs, recordedMs, ratio: replayMs / recordedMs, target: TARGET }
  } finally {
    await context.close()
  }
}

export function tapeLines(result) {
  return [
    `demo tape replay (public/demos/tour.json, ${result.turns.length} turns, ${result.turns.reduce((n, t) => n + t.commands, 0)} commands run for real)`,
    `  replay ${result.replayMs} ms vs recorded ${result.recordedMs} ms   ratio ${result.ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${result.ratio <= TARGET ? 'OK' : 'MISS'}`,
  ]
}
