import { expect, test } from 'vitest'
import { openSafeLink, safeLinkUrl } from './links.ts'

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
