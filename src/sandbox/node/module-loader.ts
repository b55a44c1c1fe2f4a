/**
 * Sandbox worker: loads one run's workspace modules on the browser's own engine. CommonJS runs
 * in a function made by indirect eval (the wrapper sits on the first line, so line numbers in
 * stack traces are the file's). An ES module is imported from a blob: URL after its import
 * specifiers are rewritten to its dependencies' blob URLs (found with es-module-lexer); built-in
 * modules, CommonJS and JSON get small generated ES modules that hand over their exports.
 * `import.meta` and dynamic `import()` go through `globalThis.__fxNode`, set for the run.
 */

import { parse } from 'es-module-lexer/js'
import { unsupported } from './builtins'
import type { MemoryFs } from './memory-fs'
import { moduleKind, resolveModule } from './resolve'

type CjsModule = { id: string; filename: string; path: string; exports: unknown; loaded: boolean; children: unknown[]; paths: string[]; require?: unknown }

export type LoaderOptions = {
  fs: MemoryFs
  builtins: Map<string, () => unknown>
  moduleUrl(source: string): string
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await arguments eval'.split(' '),
)
const dirOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/'
const exportNames = (value: unknown) =>
  value !== null && (typeof value === 'object' || typeof value === 'function') ? Object.keys(value as object).filter((name) => IDENTIFIER.test(name) && !RESERVED.has(name)) : []

/** An ES module that exports `expression`'s value as default and its keys by name. */
function handOver(expression: string, names: string[]): string {
  return `const m = ${expression};\nexport default m;\n${names.length ? `export const { ${names.join(', ')} } = m;\n` : ''}`
}

export class ModuleLoader {
  private readonly cjs = new Map<string, CjsModule>()
  private readonly esm = new Map<string, string>()
  private readonly linking: string[] = []
  private readonly urls: string[] = []
  /** blob: URL → workspace path, to put paths back into stack traces. */
  readonly pathOfUrl = new Map<string, string>()
  private readonly metas: object[] = []
  private readonly importers: Array<(specifier: string) => Promise<unknown>> = []
  mainModule: CjsModule | undefined

  constructor(private readonly options: LoaderOptions) {}

  /** What generated modules and rewritten code reach through `globalThis.__fxNode`. */
  get bridge() {
    return {
      builtin: (name: string) => this.builtin(name),
      cjs: (path: string) => this.cjs.get(path)?.exports,
      meta: this.metas,
      importFrom: this.importers,
    }
  }

  builtin(name: string): unknown {
    const bare = name.startsWith('node:') ? name.slice(5) : name
    const make = this.options.builtins.get(bare)
    if (!make) throw unsupported(bare)
    return make()
  }

  private isBuiltin(specifier: string): boolean {
    return specifier.startsWith('node:') || this.options.builtins.has(specifier) || specifier === 'http' || BUILTIN_NAMES.has(specifier)
  }

  private url(source: string, path: string): string {
    const url = this.options.moduleUrl(source)
    this.urls.push(url)
    this.pathOfUrl.set(url, path)
    return url
  }

  /** `require(specifier)` from `fromFile` (a file path, or a directory + '/'). */
  require(specifier: string, fromFile: string): unknown {
    if (this.isBuiltin(specifier)) return this.builtin(specifier)
    const path = resolveModule(this.options.fs, specifier, fromFile, false)
    return this.load(path)
  }

  /** Runs (once) and answers the CommonJS or JSON module at `path`. */
  load(path: string, main = false): unknown {
    const cached = this.cjs.get(path)
    if (cached) return cached.exports
    const source = this.source(path)
    const kind = moduleKind(this.options.fs, path, source)
    if (kind === 'esm') {
      const error = new Error(`require() of ES Module ${path} not supported.\nInstead change the require to a dynamic import() which is available in all CommonJS modules.`)
      throw Object.assign(error, { code: 'ERR_REQUIRE_ESM' })
    }
    const module: CjsModule = { id: main ? '.' : path, filename: path, path: dirOf(path), exports: {}, loaded: false, children: [], paths: [] }
    this.cjs.set(path, module)
    if (kind === 'json') {
      module.exports = JSON.parse(source)
      module.loaded = true
      return module.exports
    }
    if (main) this.mainModule = module
    const require = this.requireFrom(path)
    module.require = require
    const wrapped = `(function (exports, require, module, __filename, __dirname) {${this.rewriteDynamic(source, path)}\n})\n//# sourceURL=${path}`
    try {
      const fn = (0, eval)(wrapped) as (...args: unknown[]) => void
      fn.call(module.exports, module.exports, require, module, path, dirOf(path))
    } catch (error) {
      this.cjs.delete(path)
      throw error
    }
    module.loaded = true
    return module.exports
  }

  /** A `require` bound to `fromFile`, as CommonJS code and `module.createRequire` get it. */
  requireFrom(fromFile: string) {
    const require = (specifier: string) => this.require(String(specifier), fromFile)
    return Object.assign(require, {
      resolve: (specifier: string) => (this.isBuiltin(specifier) ? specifier : resolveModule(this.options.fs, specifier, fromFile, false)),
      cache: Object.fromEntries(this.cjs),
      main: this.mainModule,
    })
  }

  private source(path: string): string {
    const text = new TextDecoder().decode(this.options.fs.read(path))
    return text.startsWith('#!') ? `//${text.slice(2)}` : text
  }

  /** How the file at `path` loads (esm, cjs or json). */
  kindOf(path: string): string {
    return moduleKind(this.options.fs, path, this.source(path))
  }

  /** The main script's path: the file itself, or what require would find for it. */
  resolveMain(path: string): string {
    const fs = this.options.fs
    if (fs.exists(path) && fs.stat(path).kind === 'file') return path
    return resolveModule(fs, path, '/', false)
  }

  /** Imports `source` as an ES module that lives at `path` (`node -e` with import syntax). */
  importSource(source: string, path: string): Promise<unknown> {
    return import(/* @vite-ignore */ this.url(`${this.rewriteModule(source, path)}\n//# sourceURL=${path}`, path))
  }

  /** Imports the ES module (or anything else, as one) at `path`; answers its namespace. */
  async import(path: string): Promise<unknown> {
    return import(/* @vite-ignore */ this.link(path))
  }

  /** Dynamic `import(specifier)` from `fromFile`. */
  importFrom(specifier: string, fromFile: string): Promise<unknown> {
    try {
      if (this.isBuiltin(specifier)) return import(/* @vite-ignore */ this.builtinUrl(specifier))
      return this.import(resolveModule(this.options.fs, specifier, fromFile, true))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  private builtinUrl(specifier: string): string {
    const key = `builtin:${specifier.replace(/^node:/, '')}`
    const known = this.esm.get(key)
    if (known) return known
    const value = this.builtin(specifier)
    const url = this.url(handOver(`globalThis.__fxNode.builtin(${JSON.stringify(specifier)})`, exportNames(value)), specifier)
    this.esm.set(key, url)
    return url
  }

  /** The blob: URL of the module at `path`, its dependencies linked first. */
  private link(path: string): string {
    const known = this.esm.get(path)
    if (known) return known
    if (this.linking.includes(path)) {
      const cycle = [...this.linking.slice(this.linking.indexOf(path)), path].join(' → ')
      throw new Error(`fxterm's node cannot load ES modules that import each other in a cycle: ${cycle}`)
    }
    const source = this.source(path)
    const kind = moduleKind(this.options.fs, path, source)
    let url: string
    if (kind === 'json') url = this.url(`export default ${JSON.stringify(JSON.parse(source))};\n`, path)
    else if (kind === 'cjs') url = this.url(handOver(`globalThis.__fxNode.cjs(${JSON.stringify(path)})`, exportNames(this.load(path))), path)
    else {
      this.linking.push(path)
      try {
        url = this.url(`${this.rewriteModule(source, path)}\n//# sourceURL=${path}`, path)
      } finally {
        this.linking.pop()
      }
    }
    this.esm.set(path, url)
    return url
  }

  private rewriteModule(source: string, path: string): string {
    const [imports] = parse(source, path)
    const edits: Array<[number, number, string]> = []
    for (const entry of imports) {
      if (entry.d === -2) edits.push([entry.s, entry.e, this.metaOf(path)])
      else if (entry.d >= 0) edits.push([entry.ss, entry.d, this.importerOf(path)])
      else if (entry.n !== undefined) {
        const target = this.isBuiltin(entry.n) ? this.builtinUrl(entry.n) : this.link(resolveModule(this.options.fs, entry.n, path, true))
        edits.push([entry.s, entry.e, target])
        // `with { type: 'json' }`: the JSON arrives as a generated JS module, so the attribute goes.
        if (entry.a >= 0) {
          const keyword = Math.max(source.lastIndexOf('with', entry.a), source.lastIndexOf('assert', entry.a))
          edits.push([keyword, entry.se, entry.se > 0 && source[entry.se - 1] === ';' ? ';' : ''])
        }
      }
    }
    return applyEdits(source, edits)
  }

  private rewriteDynamic(source: string, path: string): string {
    let imports
    try {
      ;[imports] = parse(source, path)
    } catch {
      return source // the eval reports the syntax error itself
    }
    return applyEdits(
      source,
      imports.filter((entry) => entry.d >= 0).map((entry): [number, number, string] => [entry.ss, entry.d, this.importerOf(path)]),
    )
  }

  private metaOf(path: string): string {
    const url = `file://${encodeURI(path)}`
    this.metas.push({ url, filename: path, dirname: dirOf(path), resolve: (specifier: string) => `file://${resolveModule(this.options.fs, specifier, path, true)}` })
    return `globalThis.__fxNode.meta[${this.metas.length - 1}]`
  }

  private importerOf(path: string): string {
    this.importers.push((specifier) => this.importFrom(String(specifier), path))
    return `globalThis.__fxNode.importFrom[${this.importers.length - 1}]`
  }

  /** Frees the blob: URLs (the run is over). */
  dispose(): void {
    for (const url of this.urls) URL.revokeObjectURL(url)
  }
}

/** Node's built-in names that fxterm has not (so `require('http')` says so, not "cannot find"). */
const BUILTIN_NAMES = new Set(
  'http https http2 net tls dgram dns dns/promises child_process worker_threads cluster zlib vm v8 inspector repl stream stream/promises stream/web async_hooks diagnostics_channel punycode querystring trace_events wasi domain constants sys'.split(' '),
)

function applyEdits(source: string, edits: Array<[number, number, string]>): string {
  let out = source
  for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + text + out.slice(end)
  return out
}
