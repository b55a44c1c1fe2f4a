import { expect, test } from 'vitest'
import { decideLink, openSafeLink, safeLinkUrl, visibleLinkText, type RowReader } from './links.ts'

test('only http and https links open, in a new tab without an opener', () => {
  const opened: string[][] = []
  const open = (url: string, target: string, features: string) => opened.push([url, target, features])
  expect(openSafeLink('https://example.com/a?b=1', open)).toBe(true)
  expect(openSafeLink('http://localhost:8080/', open)).toBe(true)
  for (const hostile of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>x</script>', 'file:///etc/passwd', 'vbscript:x', 'not a url']) {
    expect(openSafeLink(hostile, open)).toBe(false)
  }
  expect(opened).toEqual([
    ['https://example.com/a?b=1', '_blank', 'noopener,noreferrer'],
    ['http://localhost:8080/', '_blank', 'noopener,noreferrer'],
  ])
  expect(safeLinkUrl(' https://x.dev')).toBe('https://x.dev/')
})

test('a link whose text is its target opens; one whose text is another URL or words asks first', () => {
  expect(decideLink('https://platform.openai.com/api-keys', 'https://platform.openai.com/api-keys')).toEqual({ action: 'open', url: 'https://platform.openai.com/api-keys' })
  expect(decideLink(' https://x.dev ', 'https://x.dev/')).toEqual({ action: 'open', url: 'https://x.dev/' })
  expect(decideLink('https://platform.openai.com/api-keys', 'https://evil.example/keys')).toEqual({ action: 'ask', url: 'https://evil.example/keys', textDiffers: true })
  expect(decideLink('https://platform.openai.com/api-keys', 'https://platform.openai.com/api-keys#x')).toEqual({ action: 'ask', url: 'https://platform.openai.com/api-keys#x', textDiffers: true })
  expect(decideLink('the keys page', 'https://evil.example/keys')).toEqual({ action: 'ask', url: 'https://evil.example/keys', textDiffers: false })
  expect(decideLink('platform.openai.com/api-keys', 'https://evil.example/')).toEqual({ action: 'ask', url: 'https://evil.example/', textDiffers: false })
})

test('a link to anything but http or https never opens, even when its text says the same', () => {
  for (const target of ['javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'blob:https://x.dev/1', 'ftp://x.dev/', 'nonsense']) {
    expect(decideLink(target, target)).toEqual({ action: 'refuse' })
    expect(decideLink('docs', target)).toEqual({ action: 'refuse' })
  }
})

/** A reader over plain ASCII rows (one character per cell). */
const reader = (rows: string[]): RowReader => ({
  rows: rows.length,
  read: (y, from = 0, to = Infinity) => (rows[y - 1] ?? '').slice(from, Number.isFinite(to) ? to : undefined),
})
const range = (y: number, x1: number, x2: number) => ({ start: { x: x1, y }, end: { x: x2, y } })

test('the visible text of a link is the piece clicked, joined across the rows a URL wraps over', () => {
  // "see [the docs](…) now" on one row: only the link's cells.
  expect(visibleLinkText(reader(['see the docs now']), range(1, 5, 12))).toBe('the docs')
  const wrapped = reader(['  go to https://platform.open', '  ai.com/api-keys then', 'next'])
  // Clicked on the first row's piece, or the second's: the same whole URL.
  expect(visibleLinkText(wrapped, range(1, 9, 29))).toBe('https://platform.openai.com/api-keys')
  expect(visibleLinkText(wrapped, range(2, 3, 17))).toBe('https://platform.openai.com/api-keys')
  // A piece followed by more text on its row is not joined with the next row.
  expect(visibleLinkText(reader(['https://a.dev/x and', 'more']), range(1, 1, 15))).toBe('https://a.dev/x')
})
