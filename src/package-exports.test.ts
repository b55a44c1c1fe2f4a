// The package's shape as Node resolves it (package.json `exports`): each entry has `types`,
// `require`, `browser`, `node` and `default` conditions; `import` in Node gets lib/fxterm.js,
// `require` gets a file that throws one sentence saying the package is ESM. Resolved from a
// throwaway app whose node_modules/fxterm links to this repository, so lib/ need not be built.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, Record<string, string> | string>; files: string[] }
const ESM_ONLY = "fxterm is an ES module package: load it with import (or await import('fxterm') from CommonJS), not require()."

let app = ''
beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), 'fxterm-exports-'))
  mkdirSync(join(app, 'node_modules'))
  symlinkSync(ROOT, join(app, 'node_modules/fxterm'), 'dir')
})
afterAll(() => rmSync(app, { recursive: true, force: true }))

/** Runs `code` with Node in the app (`--conditions` adds one, as a bundler would). */
function node(code: string, args: string[] = []) {
  const run = spawnSync(process.execPath, [...args, '-e', code], { cwd: app, encoding: 'utf8' })
  return { stdout: run.stdout.trim(), stderr: run.stderr, status: run.status }
}

describe("the package's exports", () => {
  it.each(['.', './browser', './node'])('%s has types, require, browser, node and default, in that order', (entry) => {
    expect(pkg.exports[entry]).toEqual({
      types: './lib/types/index.d.ts',
      require: './packaging/esm-only.cjs',
      browser: './lib/fxterm.js',
      node: './lib/fxterm.js',
      default: './lib/fxterm.js',
    })
    // Node takes the first condition that matches: `require` must come before `node`.
    expect(Object.keys(pkg.exports[entry]!)).toEqual(['types', 'require', 'browser', 'node', 'default'])
  })

  it('the element entry has the same conditions, and every declared types file has its source', () => {
    expect(Object.keys(pkg.exports['./fx-terminal']!)).toEqual(['types', 'require', 'browser', 'node', 'default'])
    const types = Object.values(pkg.exports).flatMap((entry) => (typeof entry === 'object' ? [entry['types']!] : []))
    expect(types.map((file) => file.replace('./lib/types/', 'src/').replace(/\.d\.ts$/, '.ts')).filter((source) => !existsSync(join(ROOT, source)))).toEqual([])
  })

  it('an ES module import in Node resolves fxterm, fxterm/node and fxterm/browser to lib/fxterm.js', () => {
    const resolved = node("for (const s of ['fxterm', 'fxterm/node', 'fxterm/browser', 'fxterm/fx-terminal']) console.log(import.meta.resolve(s))", ['--input-type=module'])
    // Through the link, or (when lib/ is built) its real path in this repository.
    const inPackage = (url: string) => url.replace(pathToFileURL(ROOT).href, '').replace(/^.*\/node_modules\/fxterm\//, '')
    expect(resolved.stdout.split('\n').map(inPackage)).toEqual(['lib/fxterm.js', 'lib/fxterm.js', 'lib/fxterm.js', 'lib/fx-terminal.js'])
  })

  it("require('fxterm') fails with one sentence saying the package is ESM", () => {
    const required = node("try { require('fxterm') } catch (e) { console.log(e.message) }")
    expect(required.stdout).toBe(ESM_ONLY)
    expect(node("try { require('fxterm/fx-terminal') } catch (e) { console.log(e.message) }").stdout).toBe(ESM_ONLY)
  })

  it('the file require() gets is packed', () => {
    expect(pkg.files).toEqual(['lib', 'packaging/esm-only.cjs'])
  })
})
