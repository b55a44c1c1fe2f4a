/**
 * Sandbox worker: Node's `fs` (sync, callback and promise forms) over one run's MemoryFs.
 * The callback forms answer on a later turn of the event loop, as Node's do, through `defer`,
 * which keeps the run alive until they have.
 */

import { Buffer } from 'buffer'
import { fsError, type MemoryFs, type Stat } from './memory-fs'

type Encoding = BufferEncoding | null | undefined
type Options = { encoding?: Encoding; flag?: string; recursive?: boolean; force?: boolean; withFileTypes?: boolean } | Encoding

const encodingOf = (options: Options): Encoding => (typeof options === 'string' ? options : (options?.encoding ?? null))
const optionsOf = (options: Options) => (typeof options === 'object' && options !== null ? options : {})

function toBytes(data: unknown, encoding: Encoding = 'utf8'): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8')
  if (data instanceof Uint8Array) return data
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
  if (data instanceof ArrayBuffer) return new Uint8Array(data)
  throw new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${typeof data}`)
}

const pathOf = (path: unknown): string => {
  if (typeof path === 'string') return path
  if (path instanceof URL) return decodeURIComponent(path.pathname)
  if (path instanceof Uint8Array) return new TextDecoder().decode(path)
  throw new TypeError(`The "path" argument must be of type string or an instance of Buffer or URL. Received ${typeof path}`)
}

class Stats {
  readonly size: number
  readonly mtimeMs: number
  readonly atimeMs: number
  readonly ctimeMs: number
  readonly birthtimeMs: number
  readonly mtime: Date
  readonly atime: Date
  readonly ctime: Date
  readonly birthtime: Date
  readonly mode: number
  constructor(private readonly stat: Stat) {
    this.size = stat.size
    this.mtimeMs = this.atimeMs = this.ctimeMs = this.birthtimeMs = stat.mtimeMs
    this.mtime = this.atime = this.ctime = this.birthtime = new Date(stat.mtimeMs)
    this.mode = stat.kind === 'dir' ? 0o40755 : 0o100644
  }
  isFile = () => this.stat.kind === 'file'
  isDirectory = () => this.stat.kind === 'dir'
  isSymbolicLink = () => false
  isFIFO = () => false
  isSocket = () => false
}

class Dirent {
  constructor(
    readonly name: string,
    readonly parentPath: string,
    private readonly kind: 'file' | 'dir',
  ) {}
  get path(): string {
    return this.parentPath
  }
  isFile = () => this.kind === 'file'
  isDirectory = () => this.kind === 'dir'
  isSymbolicLink = () => false
}

export function createFsModule(fs: MemoryFs, defer: (run: () => void) => void, writeFd: (fd: number, bytes: Uint8Array) => void) {
  const sync = {
    existsSync: (path: unknown) => {
      try {
        return fs.exists(pathOf(path))
      } catch {
        return false
      }
    },
    readFileSync(path: unknown, options?: Options) {
      const bytes = fs.read(pathOf(path))
      const encoding = encodingOf(options)
      return encoding ? Buffer.from(bytes).toString(encoding) : Buffer.from(bytes)
    },
    writeFileSync(path: unknown, data: unknown, options?: Options) {
      const flag = optionsOf(options).flag ?? 'w'
      fs.write(pathOf(path), toBytes(data, encodingOf(options) ?? 'utf8'), flag.startsWith('a'))
    },
    appendFileSync(path: unknown, data: unknown, options?: Options) {
      fs.write(pathOf(path), toBytes(data, encodingOf(options) ?? 'utf8'), true)
    },
    readdirSync(path: unknown, options?: Options) {
      const { withFileTypes, recursive } = optionsOf(options)
      const dir = fs.resolve(pathOf(path))
      const walk = (at: string, prefix: string): Array<string | Dirent> =>
        fs.list(at).flatMap((name) => {
          const full = at === '/' ? `/${name}` : `${at}/${name}`
          const kind = fs.stat(full).kind
          const entry = withFileTypes ? new Dirent(name, at, kind) : prefix + name
          return recursive && kind === 'dir' ? [entry, ...walk(full, `${prefix}${name}/`)] : [entry]
        })
      return walk(dir, '')
    },
    statSync(path: unknown, options?: { throwIfNoEntry?: boolean }) {
      try {
        return new Stats(fs.stat(pathOf(path)))
      } catch (error) {
        if (options?.throwIfNoEntry === false) return undefined
        throw error
      }
    },
    lstatSync: (path: unknown, options?: { throwIfNoEntry?: boolean }) => sync.statSync(path, options),
    accessSync(path: unknown) {
      fs.stat(pathOf(path), 'access')
    },
    realpathSync: (path: unknown) => (fs.stat(pathOf(path), 'realpath'), fs.resolve(pathOf(path))),
    mkdirSync: (path: unknown, options?: Options | number) =>
      fs.mkdir(pathOf(path), typeof options === 'object' && options !== null ? Boolean(options.recursive) : false),
    mkdtempSync(prefix: string) {
      const path = `${prefix}${Math.random().toString(36).slice(2, 8)}`
      fs.mkdir(path, false)
      return fs.resolve(path)
    },
    rmSync: (path: unknown, options?: { recursive?: boolean; force?: boolean }) => fs.remove(pathOf(path), { ...options }, 'rm'),
    rmdirSync: (path: unknown, options?: { recursive?: boolean }) => fs.remove(pathOf(path), { ...options, dirOnly: true }, 'rmdir'),
    // The run's files are a copy: a link made here could not be carried back as a link, so none is made.
    symlinkSync: (_target: unknown, path: unknown) => {
      throw fsError('EPERM', 'symlink', pathOf(path))
    },
    linkSync: (_existing: unknown, path: unknown) => {
      throw fsError('EPERM', 'link', pathOf(path))
    },
    unlinkSync: (path: unknown) => fs.remove(pathOf(path), { fileOnly: true }, 'unlink'),
    renameSync: (from: unknown, to: unknown) => fs.rename(pathOf(from), pathOf(to)),
    copyFileSync: (from: unknown, to: unknown) => fs.write(pathOf(to), fs.read(pathOf(from))),
    cpSync(from: unknown, to: unknown, options?: { recursive?: boolean }) {
      const source = pathOf(from)
      if (fs.stat(source).kind === 'file') return fs.write(pathOf(to), fs.read(source))
      if (!options?.recursive) throw fsError('EISDIR', 'cp', source)
      fs.mkdir(pathOf(to), true)
      for (const name of fs.list(source)) sync.cpSync(`${source}/${name}`, `${pathOf(to)}/${name}`, options)
    },
    /** Only the standard streams: code that writes with `fs.writeSync(1, …)` prints. */
    writeSync(fd: number, data: unknown) {
      if (fd !== 1 && fd !== 2) throw fsError('EBADF', 'write', String(fd))
      const bytes = toBytes(data)
      writeFd(fd, bytes)
      return bytes.length
    },
  }

  // fs.readFile(path, [options], callback) and the rest, answering on a later turn.
  const callbacks: Record<string, (...args: unknown[]) => void> = {}
  const promises: Record<string, (...args: unknown[]) => Promise<unknown>> = {}
  for (const [name, method] of Object.entries(sync)) {
    if (!name.endsWith('Sync')) continue
    const base = name.slice(0, -4)
    const call = method as (...args: unknown[]) => unknown
    callbacks[base] = (...args: unknown[]) => {
      const callback = typeof args.at(-1) === 'function' ? (args.pop() as (error: unknown, value?: unknown) => void) : null
      let outcome: { error: unknown } | { value: unknown }
      try {
        outcome = { value: call(...args) }
      } catch (error) {
        outcome = { error }
      }
      if (callback) defer(() => ('error' in outcome ? callback(outcome.error) : callback(null, outcome.value)))
    }
    promises[base] = async (...args: unknown[]) => call(...args)
  }
  delete promises.exists // fs.promises has no exists
  callbacks.exists = (path: unknown, callback: unknown) => defer(() => (callback as (found: boolean) => void)(sync.existsSync(path)))
  promises.access = async (path: unknown) => void sync.accessSync(path)

  const constants = { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1 }
  return { ...sync, ...callbacks, promises: { ...promises, constants }, constants, Stats, Dirent, ...constants }
}
