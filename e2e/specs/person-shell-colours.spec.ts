// `!git diff` on the person's terminal shows git's colours (red removed, green added, cyan hunk,
// bold meta lines), read from xterm's cells, while the model reads the same diff without a single
// escape byte.
import type { Page } from '@playwright/test'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'
import { openWithMock } from '../support/app.ts'
import { textReply } from '../support/chunks.ts'
import { pressKey, submitPrompt, waitForScreen } from '../support/screen.ts'
import { runCommand } from '../support/run-code.ts'

type FxWindow = Window & { fxterm?: { term: Terminal } }
type Look = { fg: number | 'default'; bold: boolean }

/** How the first character of `text` looks on the newest row holding it (palette index or default). */
function look(page: Page, text: string): Promise<Look | null> {
  return page.evaluate((text) => {
    const buffer = (window as FxWindow).fxterm!.term.buffer.active
    for (let y = buffer.length - 1; y >= 0; y--) {
      const line = buffer.getLine(y)
      const x = line?.translateToString(true).indexOf(text) ?? -1
      if (x < 0) continue
      const cell = line!.getCell(x)!
      return { fg: cell.isFgDefault() ? ('default' as const) : cell.getFgColor(), bold: cell.isBold() !== 0 }
    }
    return null
  }, text)
}

const RED = 1
const GREEN = 2
const CYAN = 6

test('!git diff shows git\'s colours in the cells, and the model reads the diff plain', async ({ page, mock }) => {
  await openWithMock(page, mock)
  const setup = await runCommand(
    page,
    'git init -q && printf "keep\\nold line\\n" > notes.txt && git add notes.txt && ' +
      'git -c user.name=A -c user.email=a@example.com commit -q -m one && printf "keep\\nnew line\\n" > notes.txt',
  )
  expect(setup.exitCode).toBe(0)

  await submitPrompt(page, '!git diff')
  await waitForScreen(page, '● Ran git diff')
  // The row shows the first lines: git's bold meta lines and its cyan hunk header.
  await expect.poll(() => look(page, 'diff --git a/notes.txt')).toEqual({ fg: 'default', bold: true })
  expect(await look(page, '@@ -1,2 +1,2 @@')).toEqual({ fg: CYAN, bold: false })
  // The whole output, in Ctrl+O's view: the removed line red, the added one green, context plain.
  await pressKey(page, 'Control+o')
  await waitForScreen(page, '+new line')
  expect(await look(page, '-old line')).toEqual({ fg: RED, bold: false })
  expect(await look(page, '+new line')).toEqual({ fg: GREEN, bold: false })
  expect(await look(page, ' keep')).toEqual({ fg: 'default', bold: false })
  await pressKey(page, 'Escape')
  await waitForScreen(page, '● Ran git diff')

  await mock.script({ chunks: textReply('One line changed.') })
  await submitPrompt(page, 'what changed?')
  await waitForScreen(page, 'One line changed.')
  const [request] = await mock.requests()
  const contents = request!.messages.map((m) => String(m.content))
  const note = contents.find((c) => c.includes('$ git diff'))
  expect(note).toContain('@@ -1,2 +1,2 @@\n keep\n-old line\n+new line\n')
  expect(contents.filter((c) => c.includes('\x1b'))).toEqual([])
})
