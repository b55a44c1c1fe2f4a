/**
 * Sandbox worker: the files one `node` run sees — a copy of the workspace files under the root,
 * held in memory, with Node's error codes and messages. Paths outside the root do not exist,
 * except /tmp, which starts empty (programs write scratch files there); only changes under the
 * root are reported back to the workspace.
 */

import { concatBytes } from '../../shared/protocol/bytes'
import { resolveWorkspacePath } from '../../shared/workspace/workspace-paths'
import type { SandboxFiles } from '../../shared/sandbox/runtime-types'

export type Stat = { kind: 'file' | 'dir'; size: number; mtimeMs: number }

export class FsError extends Error {
  constructor(
    readonly code: string,
    readonly syscall: string,
    readonly path: string,
    description: string,
  ) {
    super(`${code}: ${description}, ${syscall} '${path}'`)
    this.name = 'Error'
  }
  get errno(): number {
    return { ENOENT: -2, EEXIST: -17, EISDIR: -21, ENOTDIR: -20, ENOTEMPTY: -39, EACCES: -13, EPERM: -1 }[this.code] ?? -1
  }
}

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  EISDIR: 'illegal operation on a directory',
  ENOTDIR: 'not a directory',
  ENOTEMPTY: 'directory not empty',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
}

export const fsError = (code: string, syscall: string, path: string) => new FsError(code, syscall, path, DESCRIPTIONS[code] ?? code)

/** Normalizes `path` against `cwd`: absolute, no '.', '..' or empty segments (as the workspace does). */
export const absolute: (path: string, cwd: string) => string = resolveWorkspacePath

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/'

export class MemoryFs {
  private readonly files = new Map<string, { bytes: Uint8Array; mtimeMs: number }>()
  private readonly dirs = new Set<string>(['/'])

  constructor(
    private readonly root: string,
    private readonly original: SandboxFiles,
    readonly cwd: () => string,
  ) {
    for (const dir of [root, '/tmp']) this.addDirs(dir)
    const now = Date.now()
    for (const [path, bytes] of Object.entries(original)) {
      if (!this.inside(path)) continue
      this.addDirs(parentOf(path))
      this.files.set(path, { bytes, mtimeMs: now })
    }
  }

  private inside(path: string): boolean {
    return path === this.root || path.startsWith(`${this.root}/`) || path === '/tmp' || path.startsWith('/tmp/')
  }

  private addDirs(dir: string): void {
    for (let at = dir; !this.dirs.has(at); at = parentOf(at)) this.dirs.add(at)
  }

  resolve(path: string): string {
    return absolute(path, this.cwd())
  }

  stat(path: string, syscall = 'stat'): Stat {
    const full = this.resolve(path)
    const file = this.files.get(full)
    if (file) return { kind: 'file', size: file.bytes.length, mtimeMs: file.mtimeMs }
    if (this.dirs.has(full)) return { kind: 'dir', size: 4096, mtimeMs: 0 }
    throw fsError('ENOENT', syscall, path)
  }

  exists(path: string): boolean {
    const full = this.resolve(path)
    return this.files.has(full) || this.dirs.has(full)
  }

  read(path: string): Uint8Array {
    const full = this.resolve(path)
    const file = this.files.get(full)
    if (file) return file.bytes
    throw fsError(this.dirs.has(full) ? 'EISDIR' : 'ENOENT', 'open', path)
  }

  write(path: string, bytes: Uint8Array, append = false): void {
    const full = this.resolve(path)
    if (this.dirs.has(full)) throw fsError('EISDIR', 'open', path)
    const parent = parentOf(full)
    if (this.files.has(parent)) throw fsError('ENOTDIR', 'open', path)
    if (!this.dirs.has(parent) || !this.inside(full)) throw fsError(this.inside(full) ? 'ENOENT' : 'EACCES', 'open', path)
    const before = append ? this.files.get(full)?.bytes : undefined
    const next = before ? concatBytes([before, bytes]) : bytes.slice()
    this.files.set(full, { bytes: next, mtimeMs: Date.now() })
  }

  mkdir(path: string, recursive: boolean): string | undefined {
    const full = this.resolve(path)
    if (this.files.has(full) || (this.dirs.has(full) && !recursive)) throw fsError('EEXIST', 'mkdir', path)
    if (this.dirs.has(full)) return undefined
    if (!this.inside(full)) throw fsError('EACCES', 'mkdir', path)
    if (!recursive && !this.dirs.has(parentOf(full))) throw fsError('ENOENT', 'mkdir', path)
    let first = full
    for (let at = full; !this.dirs.has(at); at = parentOf(at)) {
      if (this.files.has(at)) throw fsError('ENOTDIR', 'mkdir', path)
      first = at
    }
    this.addDirs(full)
    return recursive ? first : undefined
  }

  list(path: string): string[] {
    const full = this.resolve(path)
    if (this.files.has(full)) throw fsError('ENOTDIR', 'scandir', path)
    if (!this.dirs.has(full)) throw fsError('ENOENT', 'scandir', path)
    const prefix = full === '/' ? '/' : `${full}/`
    const names = new Set<string>()
    for (const each of [...this.files.keys(), ...this.dirs]) {
      if (each.startsWith(prefix) && each !== full) names.add(each.slice(prefix.length).split('/')[0]!)
    }
    return [...names].sort()
  }

  remove(path: string, options: { recursive?: boolean; force?: boolean; dirOnly?: boolean; fileOnly?: boolean }, syscall: string): void {
    const full = this.resolve(path)
    if (this.files.has(full)) {
      if (options.dirOnly) throw fsError('ENOTDIR', syscall, path)
      this.files.delete(full)
      return
    }
    if (!this.dirs.has(full)) {
      if (options.force) return
      throw fsError('ENOENT', syscall, path)
    }
    if (options.fileOnly) throw fsError(syscall === 'unlink' ? 'EISDIR' : 'EISDIR', syscall, path)
    const inside = (each: string) => each.startsWith(`${full}/`)
    const children = [...this.files.keys()].some(inside) || [...this.dirs].some(inside)
    if (children && !options.recursive) throw fsError('ENOTEMPTY', syscall, path)
    for (const file of [...this.files.keys()]) if (inside(file)) this.files.delete(file)
    for (const dir of [...this.dirs]) if (inside(dir) || dir === full) this.dirs.delete(dir)
  }

  rename(from: string, to: string): void {
    const source = this.resolve(from)
    const target = this.resolve(to)
    const file = this.files.get(source)
    if (file) {
      this.write(to, file.bytes)
      this.files.delete(source)
      return
    }
    if (!this.dirs.has(source)) throw fsError('ENOENT', 'rename', from)
    this.mkdir(to, true)
    for (const [path, entry] of [...this.files]) {
      if (!path.startsWith(`${source}/`)) continue
      this.files.delete(path)
      const moved = target + path.slice(source.length)
      this.addDirs(parentOf(moved))
      this.files.set(moved, entry)
    }
    for (const dir of [...this.dirs]) {
      if (dir !== source && !dir.startsWith(`${source}/`)) continue
      this.dirs.delete(dir)
      this.addDirs(target + dir.slice(source.length))
    }
  }

  /** What the run changed under the root: bytes for created or changed files, null for removed ones. */
  changes(): Record<string, Uint8Array | null> {
    const changes: Record<string, Uint8Array | null> = {}
    const underRoot = (path: string) => path.startsWith(`${this.root}/`)
    for (const [path, { bytes }] of this.files) {
      if (underRoot(path) && !sameBytes(this.original[path], bytes)) changes[path] = bytes
    }
    for (const path of Object.keys(this.original)) if (underRoot(path) && !this.files.has(path)) changes[path] = null
    return changes
  }
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  if (!a || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
