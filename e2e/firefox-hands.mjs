// The Firefox smoke's "first ten minutes" case (issue 32): a reply with a table survives
// 1100 → 500 → 1100 px with every line once; `!ls` lists the workspace with no model request; a
// selection of the output is copied by Ctrl+C, which neither interrupts nor clears the draft.
// The clipboard is read through the page's own clipboard object (headless Firefox grants no
// clipboard read), which fxterm calls with the selection.
import { startMockModelServer } from '../mock-servers/mock-model-server.mjs'

const TABLE = ['A table for Firefox:', '', '| City | Greeting | How people say it in the street |', '| --- | --- | --- |', '| Lisbon | Olá | warmly, often with a kiss on each cheek among friends |', '| Tokyo | Konnichiwa | with a small bow; in shops you hear irasshaimase |', '', 'End of the firefox table.'].join('\n')

const chunk = (delta, finish = null) => ({ choices: [{ index: 0, delta, finish_reason: finish }] })

/** Rows of the whole buffer, and how many xterm wrapped itself. */
const bufferRows = (page) =>
  page.evaluate(() => {
    const term = window.fxterm.term
    const buffer = term.buffer.normal
    const rows = []
    let wrapped = 0
    for (let i = 0; i < buffer.length; i++) {
      const line = buffer.getLine(i)
      if (line?.isWrapped) wrapped++
      rows.push((line?.translateToString(true) ?? '').trimEnd())
    }
    return { rows, wrapped, cols: term.cols }
  })

async function until(what, check, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const last = await check()
    if (last === true) return
    if (Date.now() > deadline) throw new Error(`Firefox: ${what}${typeof last === 'string' ? `:\n${last}` : ''}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The table's lines are there once each and laid out for the width; else what is wrong. */
async function tableWhole(page) {
  const { rows, wrapped, cols } = await bufferRows(page)
  const count = (pattern) => rows.filter((row) => pattern.test(row)).length
  const problems = []
  if (count(/End of the firefox table\./) !== 1) problems.push(`"End of the firefox table." ${count(/End of the firefox table\./)} times`)
  if (count(/┌─/) !== 1 || count(/└─/) !== 1) problems.push(`top border ${count(/┌─/)}, bottom border ${count(/└─/)} times`)
  if (count(/Lisbon/) !== 1 || count(/Tokyo/) !== 1) problems.push('a table row is missing or doubled')
  if (wrapped > 0) problems.push(`${wrapped} rows wrapped by xterm`)
  return problems.length === 0 ? true : `${problems.join('; ')} at ${cols} columns:\n${rows.join('\n')}`
}

async function resize(page, width) {
  const before = await page.evaluate(() => window.fxterm.term.cols)
  await page.setViewport({ width, height: 700 })
  await until(`the terminal did not refit to ${width} px`, async () => (await page.evaluate(() => window.fxterm.term.cols)) !== before)
}

/** Runs the case on `page` (the built page at `origin`); throws with what went wrong. */
export async function handsCase(page, origin, waitFor) {
  const mock = await startMockModelServer()
  try {
    const post = (path, body) => fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const modelRequests = async () => (await (await fetch(`${mock.url}/__requests`)).json()).length
    await post('/__script', [{ chunks: [chunk({ role: 'assistant', content: '' }), chunk({ content: TABLE }), chunk({}, 'stop')] }])
    await page.setViewport({ width: 1100, height: 700 })
    await page.goto(`${origin}/?${new URLSearchParams({ baseUrl: `${mock.url}/v1`, model: 'mock-model' })}`)
    await waitFor(/fxterm.*Run \/help for commands/, 20_000)
    const type = async (text) => {
      await page.focus('.xterm-helper-textarea')
      await page.keyboard.type(text)
    }
    await type('a table please')
    await page.keyboard.press('Enter')
    await waitFor(/End of the firefox table\./, 20_000)
    await until('the table at 1100 px', () => tableWhole(page))

    // Resize: the table's last line and its borders stay, once, at each width.
    await resize(page, 500)
    await until('the table at 500 px', () => tableWhole(page))
    await resize(page, 1100)
    await until('the table back at 1100 px', () => tableWhole(page))

    // !ls: the person's own command, run in the workspace, with no model request.
    const asked = await modelRequests()
    await page.evaluate(() => window.fxterm.workspace.writeFiles([{ path: 'firefox-listed.txt', data: new TextEncoder().encode('x\n') }]))
    await type('!ls')
    await page.keyboard.press('Enter')
    await waitFor(/● Ran ls[\s\S]*firefox-listed\.txt/, 20_000)
    if ((await modelRequests()) !== asked) throw new Error('Firefox: !ls sent a request to the model')

    // Copy: a selection of the output and Ctrl+C puts it on the clipboard; the draft stays.
    await page.evaluate(() => {
      window.__fxCopied = []
      const clipboard = navigator.clipboard
      Object.defineProperty(clipboard, 'writeText', { configurable: true, value: (text) => (window.__fxCopied.push(text), Promise.resolve()) })
    })
    await type('draft')
    await waitFor(/❯ draft/, 10_000)
    const selected = await page.evaluate(() => {
      const term = window.fxterm.term
      const buffer = term.buffer.active
      for (let i = buffer.length - 1; i >= 0; i--) {
        const text = buffer.getLine(i)?.translateToString(true) ?? ''
        const at = text.indexOf('End of the firefox table.')
        if (at >= 0) {
          term.select(at, i, 'End of the firefox table.'.length)
          return term.getSelection()
        }
      }
      return ''
    })
    if (selected !== 'End of the firefox table.') throw new Error(`Firefox: could not select the table's last line (got ${JSON.stringify(selected)})`)
    await page.keyboard.down('Control')
    await page.keyboard.press('c')
    await page.keyboard.up('Control')
    await until('Ctrl+C with a selection did not copy it', async () => (await page.evaluate(() => window.__fxCopied.join('|'))) === selected)
    const { rows } = await bufferRows(page)
    if (!rows.some((row) => row === '❯ draft')) throw new Error(`Firefox: Ctrl+C that copied cleared the draft:\n${rows.slice(-6).join('\n')}`)
    if (rows.some((row) => row.includes('/exit ends the session'))) throw new Error('Firefox: Ctrl+C that copied counted toward exiting')
  } finally {
    await mock.close()
  }
}
