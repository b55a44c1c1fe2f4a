/**
 * The engine's modules import each other in one direction only. A circle (a command importing the
 * engine that imports the command) makes a module impossible to read, test or move on its own,
 * so this test builds the import graph from the `import … from './…'` lines of wasm/engine/ and
 * fails on any strongly connected group of files, printing one circle through each.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../engine')

/** Every .ts file under `dir`, as paths relative to ROOT without the extension. */
function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return modules(path)
    return entry.name.endsWith('.ts') ? [relative(ROOT, path).slice(0, -3)] : []
  })
}

// `import`/`export … from '…'`, across lines; only relative specifiers name engine files.
const FROM = /^(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]/gm

/** The modules `text` (the source of module `name`) imports, as paths relative to ROOT. */
function importsOf(name: string, text: string): string[] {
  return [...new Set([...text.matchAll(FROM)].map((m) => relative(ROOT, resolve(ROOT, dirname(name), m[1]!))))]
}

/** Module → the engine modules it imports. */
function importGraph(names: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const name of names) {
    const imports = importsOf(name, readFileSync(join(ROOT, name + '.ts'), 'utf8'))
    graph.set(name, imports.filter((t) => names.includes(t)))
  }
  return graph
}

/** Tarjan's strongly connected components: each group of files that reach one another. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const group: string[] = []
    let w: string
    do {
      w = stack.pop()!
      onStack.delete(w)
      group.push(w)
    } while (w !== v)
    if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group.sort())
  }
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v)
  return groups
}

/** One circle inside `group`, from its first file back to it: a → b → … → a. */
function oneCircle(graph: Map<string, string[]>, group: string[]): string {
  const inGroup = new Set(group)
  const start = group[0]
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const v = queue.shift()!
    for (const w of graph.get(v) ?? []) {
      if (!inGroup.has(w)) continue
      if (w === start) {
        const path = [start]
        for (let at = v; at !== start; at = previous.get(at)!) path.splice(1, 0, at)
        return [...path, start].join(' → ')
      }
      if (!previous.has(w)) {
        previous.set(w, v)
        queue.push(w)
      }
    }
  }
  return group.join(', ')
}

describe('the engine’s import graph', () => {
  test('is read from imports written across lines, re-exports and namespace imports', () => {
    const source = [
      "import { a } from './util/byte-buf'",
      'import {',
      '  b,',
      '  c,',
      "} from '../abi/frames'",
      "import * as K from './keys'",
      "export { d } from './keys'",
      "const notAnImport = 'import x from \\'./elsewhere\\''",
    ].join('\n')
    expect(importsOf('screen/render', source)).toEqual(['screen/util/byte-buf', 'abi/frames', 'screen/keys'])
  })

  test('has no import circles in wasm/engine/', () => {
    const graph = importGraph(modules(ROOT))
    expect(graph.get('engine')).toContain('screen/render')
    expect(circles(graph).map((group) => oneCircle(graph, group))).toEqual([])
  })
})
