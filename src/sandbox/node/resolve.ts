/**
 * Sandbox worker: where `require(x)` and `import x` lead, by Node's rules as a small project
 * uses them — relative and absolute paths with the extensions and index files CommonJS tries,
 * a directory's package.json `main`, packages in node_modules (`exports` or `main`) — and
 * whether a file is an ES module (.mjs, .cjs, package.json `type`, or, for a .js with no type,
 * its import/export syntax, as Node 22 detects it).
 */

import { parse } from 'es-module-lexer/js'
import { absolute, type MemoryFs } from './memory-fs'

export type ModuleKind = 'esm' | 'cjs' | 'json'

const EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.json']
const INDEXES = ['index.js', 'index.mjs', 'index.cjs', 'index.json']

export class ResolveError extends Error {
  readonly code = 'MODULE_NOT_FOUND'
  constructor(specifier: string, from: string) {
    super(`Cannot find module '${specifier}'\nRequire stack:\n- ${from}`)
  }
}

const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/'

function isFile(fs: MemoryFs, path: string): boolean {
  try {
    return fs.stat(path).kind === 'file'
  } catch {
    return false
  }
}

function readJson(fs: MemoryFs, path: string): Record<string, unknown> | null {
  if (!isFile(fs, path)) return null
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(fs.read(path)))
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function asFileOrDir(fs: MemoryFs, path: string): string | null {
  for (const extension of EXTENSIONS) if (isFile(fs, path + extension)) return path + extension
  const manifest = readJson(fs, `${path}/package.json`)
  if (typeof manifest?.main === 'string') {
    const main = asFileOrDir(fs, absolute(manifest.main, path))
    if (main) return main
  }
  for (const index of INDEXES) if (isFile(fs, `${path}/${index}`)) return `${path}/${index}`
  return null
}

/** A package's entry from its `exports` (".", or a subpath), or null to fall back to `main`. */
function fromExports(exports: unknown, subpath: string, esm: boolean): string | null {
  const pick = (target: unknown): string | null => {
    if (typeof target === 'string') return target
    if (Array.isArray(target)) return pick(target[0])
    if (typeof target !== 'object' || target === null) return null
    const conditions = target as Record<string, unknown>
    for (const condition of [esm ? 'import' : 'require', 'node', 'default']) {
      if (condition in conditions) return pick(conditions[condition])
    }
    return null
  }
  if (typeof exports === 'string' || Array.isArray(exports)) return subpath === '.' ? pick(exports) : null
  if (typeof exports !== 'object' || exports === null) return null
  const map = exports as Record<string, unknown>
  if (!Object.keys(map).some((key) => key.startsWith('.'))) return subpath === '.' ? pick(map) : null
  return subpath in map ? pick(map[subpath]) : null
}

/** The absolute path `specifier` leads to from `fromFile` (a file, or a directory + '/'). */
export function resolveModule(fs: MemoryFs, specifier: string, fromFile: string, esm: boolean): string {
  const base = fromFile.endsWith('/') ? fromFile.slice(0, -1) || '/' : dirOf(fromFile)
  if (specifier.startsWith('file://')) specifier = decodeURIComponent(new URL(specifier).pathname)
  if (specifier.startsWith('/') || specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
    const found = asFileOrDir(fs, absolute(specifier, base))
    if (found) return found
    throw new ResolveError(specifier, fromFile)
  }
  const parts = specifier.split('/')
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
  const rest = parts.slice(name.split('/').length).join('/')
  for (let dir = base; ; dir = dirOf(dir)) {
    const packageDir = `${dir === '/' ? '' : dir}/node_modules/${name}`
    const manifest = readJson(fs, `${packageDir}/package.json`)
    const entry = manifest ? fromExports(manifest.exports, rest ? `./${rest}` : '.', esm) : null
    const found = entry ? asFileOrDir(fs, absolute(entry, packageDir)) : asFileOrDir(fs, rest ? `${packageDir}/${rest}` : packageDir)
    if (found) return found
    if (dir === '/') break
  }
  throw new ResolveError(specifier, fromFile)
}

/** How `path` is loaded: by extension, then the nearest package.json's `type`, then its syntax. */
export function moduleKind(fs: MemoryFs, path: string, source: string): ModuleKind {
  if (path.endsWith('.json')) return 'json'
  if (path.endsWith('.mjs')) return 'esm'
  if (path.endsWith('.cjs')) return 'cjs'
  for (let dir = dirOf(path); ; dir = dirOf(dir)) {
    const manifest = readJson(fs, `${dir === '/' ? '' : dir}/package.json`)
    if (manifest?.type === 'module') return 'esm'
    if (manifest?.type === 'commonjs') return 'cjs'
    if (manifest) break
    if (dir === '/') break
  }
  return looksLikeEsm(source) ? 'esm' : 'cjs'
}

/** Whether `source` has import or export statements (or import.meta). */
export function looksLikeEsm(source: string): boolean {
  try {
    const [imports, exports] = parse(source)
    return exports.length > 0 || imports.some((entry) => entry.d === -1 || entry.d === -2)
  } catch {
    return false
  }
}
