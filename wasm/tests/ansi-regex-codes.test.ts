/**
 * Every escape code chalk/ansi-regex tests its pattern against (fixtures/ansi-regex-codes.js),
 * fed as the model's text the way ansi-regex's own test.js feeds it: inside a word
 * (`hel<ESC><code>lo` must read "hello"), and before each of its "consumption characters",
 * which must not be swallowed with the code. The cases sit in a fenced code block, one a line,
 * so Markdown leaves their characters as they are.
 */
import { describe, expect, test } from 'vitest'
import * as codeSets from './fixtures/ansi-regex-codes.js'
import { createHarness } from './harness.ts'

const ESC = '\x1b'
/** ansi-regex's test.js: the characters that must survive right after a code. */
const CONSUMPTION = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()_+1234567890-=[]{};\':"./>?,<\\|'

/**
 * What a terminal prints of `code`: nothing, except for the fixture's `5n`-style entries, which
 * are ESC <digit> (a whole two-byte escape in xterm.js's parser) and then a printed letter.
 */
function printedOf(code: string): string {
  return /^\d[a-z]$/.test(code) ? code.slice(1) : ''
}

/** The reply's case lines, `<n>|<text>`, as drawn: text by case number. */
async function drawn(lines: string[]): Promise<Map<number, string>> {
  const h = await createHarness({ rows: 40 })
  await h.type('go\r')
  const body = lines.map((line, i) => `${i}|${line}`).join('\n')
  await h.model(1, { type: 'text_delta', delta: `Codes:\n\n\`\`\`\n${body}\n\`\`\`\n\nthe end\n` })
  await h.model(1, { type: 'finish', reason: 'stop' })
  const screen = h.screen()
  expect(screen).toContain('the end')
  const found = new Map<number, string>()
  for (const row of screen.split('\n')) {
    const match = /(?:^|\s)(\d+)\|(.*?)\s*$/.exec(row)
    if (match) found.set(Number(match[1]), match[2]!)
  }
  return found
}

describe("ansi-regex's escape codes: removed, and the text around them shows", () => {
  for (const [setName, codes] of Object.entries(codeSets)) {
    for (const code of codes.keys()) {
      test(`${setName} ${JSON.stringify(code)}: inside a word and before each character`, async () => {
        const inputs = [`hel${ESC}${code}lo`, ...[...CONSUMPTION].map((character) => `${ESC}${code}${character}`)]
        const expected = [`hel${printedOf(code)}lo`, ...[...CONSUMPTION].map((character) => `${printedOf(code)}${character}`)]
        const found = await drawn(inputs)
        expect(inputs.map((_, i) => found.get(i))).toEqual(expected)
      })
    }
  }
})

test('bracketed text without an ESC is text, shown as written (ansi-regex: "does not match bracketed text without ESC")', async () => {
  const samples = ['[38:2:68:68:68m', '[4:5m', 'some [0m text', 'plain [58:2::255:0:0m words']
  const found = await drawn(samples)
  expect(samples.map((_, i) => found.get(i))).toEqual(samples)
})
