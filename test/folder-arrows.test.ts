/**
 * src/ is laid out by the thread code runs on (docs/ARCHITECTURE.md, "Where code runs"), and the
 * folders import each other one way only. This test reads every import of src/'s production files
 * (static, dynamic, type-only, and worker URLs) and pins the arrows between the top folders; below
 * them, no two folders may import each other, and production code never imports test code.
 */
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SRC = join(REPO, 'src')

/** The arrows allowed between src/'s top folders: the page may use any thread's code, the
 * threads only shared/, and shared/ nothing. `(root)` is src/index.ts, the package's entry. */
const TOP_ARROWS = [
  '(root) -> engine-worker',
  '(root) -> page',
  '(root) -> shared',
  'bash-worker -> shared',
  'engine-worker -> shared',
  'page -> bash-worker',
  'page -> engine-worker',
  'page -> sandbox',
  'page -> shared',
  'sandbox -> shared',
]

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

// Any quoted relative path after `from`, `import(`, a bare `import`, or `new URL(`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|new URL\(\s*)['"](\.\.?\/[^'"]+)['"]/gm

/** Each production file → the repository files it imports. */
function imports(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sources(SRC)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].flatMap((m) => {
      const path = resolve(dirname(file), m[1]!.replace(/\?.*$/, ''))
      const found = [path, `${path}.ts`, path.replace(/\.js$/, '.ts')].find((p) => existsSync(p) && statSync(p).isFile())
      return found ? [found] : []
    })
    graph.set(file, targets)
  }
  return graph
}

/** The folder of `file` under src/, `depth` levels deep; `(root)` for src/'s own files. */
function folderOf(file: string, depth: number): string {
  const parts = relative(SRC, file).split('/')
  return parts.length === 1 ? '(root)' : parts.slice(0, Math.min(depth, parts.length - 1)).join('/')
}

function arrows(depth: number): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const [file, targets] of imports()) {
    for (const target of targets) {
      if (!target.startsWith(SRC + '/')) continue
      const from = folderOf(file, depth)
      const to = folderOf(target, depth)
      if (from === to) continue
      const key = `${from} -> ${to}`
      found.set(key, [...(found.get(key) ?? []), `${relative(SRC, file)} imports ${relative(SRC, target)}`])
    }
  }
  return found
}

describe('folders by thread', () => {
  it('the top folders import each other only along the pinned arrows', () => {
    const found = arrows(1)
    const unexpected = [...found].filter(([key]) => !TOP_ARROWS.includes(key)).map(([key, why]) => `${key}: ${why[0]}`)
    expect(unexpected).toEqual([])
    expect([...found.keys()].sort()).toEqual(TOP_ARROWS)
  })

  it('no two folders import each other', () => {
    const found = arrows(2)
    const both = [...found.keys()].filter((key) => {
      const [from, to] = key.split(' -> ')
      return from! < to! && found.has(`${to} -> ${from}`)
    })
    expect(both.map((key) => `${key}: ${found.get(key)![0]}`)).toEqual([])
  })

  it('production code imports no test, e2e or mock-server code', () => {
    const outside = [...imports()].flatMap(([file, targets]) =>
      targets.filter((t) => /^(test|e2e|mock-servers)\//.test(relative(REPO, t)) || /\.test\.ts$/.test(t)).map((t) => `${relative(REPO, file)} imports ${relative(REPO, t)}`),
    )
    expect(outside).toEqual([])
  })
})
