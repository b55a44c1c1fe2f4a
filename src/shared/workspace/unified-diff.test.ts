import { structuredPatch } from 'diff'
import { describe, expect, it } from 'vitest'
import { diffFile } from './unified-diff'

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `line ${i + 1}\n`).join('')

/** The hunks jsdiff gives for the whole texts, in the form diffFile writes them. */
function wholeFileHunks(before: string, after: string): string[] {
  return structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3 }).hunks.flatMap((hunk) => [
    `@@ -${hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart},${hunk.oldLines} +${hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart},${hunk.newLines} @@`,
    ...hunk.lines,
  ])
}

describe('diffFile', () => {
  const big = numbered(2000)
  it.each([
    ['one line in the middle', big, big.replace('line 1000\n', 'line one thousand\n')],
    ['two distant edits', big, big.replace('line 10\n', 'x\n').replace('line 1990\n', 'y\n')],
    ['lines added at the end', big, `${big}more\nand more\n`],
    ['the first line removed', big, big.slice('line 1\n'.length)],
    ['the last newline removed', big, big.slice(0, -1)],
    ['a new file', '', 'a\nb\n'],
  ])('gives the same hunks as jsdiff on the whole file: %s', (_, before, after) => {
    const diff = diffFile('f', before, after)
    expect(diff.text.split('\n').slice(2)).toEqual(wholeFileHunks(before, after))
  })

  it('counts the lines added and removed', () => {
    expect(diffFile('f', 'a\nb\nc\n', 'a\nB\nc\nd\n')).toMatchObject({ added: 2, removed: 1, binary: false })
  })

  it('shows a binary file as its size', () => {
    expect(diffFile('img.png', null, new Uint8Array([0x89, 0x50, 0x00, 0xff]))).toEqual({
      path: 'img.png',
      added: 0,
      removed: 0,
      binary: true,
      text: '--- /dev/null\n+++ b/img.png\nbinary, 4 bytes',
    })
  })
})
