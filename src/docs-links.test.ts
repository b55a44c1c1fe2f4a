/**
 * The README stays a page a person reads (≤ 30 KB, issue 35) and the details live in docs/: every
 * relative link of the README and the docs pages names a file that exists and, with a #fragment,
 * a heading that file has, so moving a section cannot leave a link pointing nowhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replaceAll(' ', '-')
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '')
  return new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!)))
}

/** Each relative Markdown link of `page` that names no file, or no heading of its file. */
function brokenLinks(page: string): string[] {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '')
  const broken: string[] = []
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue
    const [path, fragment] = target!.split('#') as [string, string | undefined]
    const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), path)
    if (!existsSync(file)) broken.push(`${target} (no file ${relative(ROOT, file)})`)
    else if (fragment !== undefined && file.endsWith('.md') && !anchorsOf(file).has(fragment)) broken.push(`${target} (no heading)`)
  }
  return broken
}

describe('the README and the docs pages', () => {
  test('the README is at most 30 KB', () => {
    expect(readFileSync(join(ROOT, 'README.md')).byteLength).toBeLessThanOrEqual(30 * 1024)
  })

  test.each(PAGES)('every relative link of %s leads to a file and a heading that exist', (page) => {
    expect(brokenLinks(page)).toEqual([])
  })
})
