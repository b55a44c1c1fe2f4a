/**
 * Bash worker side: the workspace's file system in the shape isomorphic-git asks for (Node's
 * `fs.promises` subset). just-bash's errors carry their code only in the message ("ENOENT: ..."),
 * and isomorphic-git decides on `err.code`, so every error gets its code copied onto it.
 */

import type { IFileSystem } from 'just-bash/browser'

type Encoding = { encoding?: string } | string | undefined

export type GitFsPromises = {
  readFile(path: string, options?: Encoding): Promise<Uint8Array | string>
  writeFile(path: string, data: Uint8Array | string, options?: Encoding): Promise<void>
  unlink(path: string): Promise<void>
  readdir(path: string): Promise<string[]>
  mkdir(path: string): Promise<void>
  rmdir(path: string): Promise<void>
  stat(path: string): Promise<GitStat>
  lstat(path: string): Promise<GitStat>
  readlink(path: string): Promise<string>
  symlink(target: string, path: string): Promise<void>
  chmod(path: string, mode: number): Promise<void>
}

export type GitStat = {
  type: 'file' | 'dir' | 'symlink'
  mode: number
  size: number
  ino: number
  mtimeMs: number
  ctimeMs: number
  uid: number
  gid: number
  dev: number
  isFile(): boolean
  isDirectory(): boolean
  isSymbolicLink(): boolean
}

/** The code at the start of a just-bash error message, set as `code` (ENOENT, EEXIST, ...). */
function withCode(error: unknown): unknown {
  if (error instanceof Error && !(error as { code?: string }).code) {
    const code = /^(E[A-Z]+)\b/.exec(error.message)?.[1]
    if (code) (error as { code?: string }).code = code
  }
  return error
}

async function coded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw withCode(error)
  }
}

function encodingOf(options: Encoding): string | undefined {
  return typeof options === 'string' ? options : options?.encoding
}

function toStat(stat: Awaited<ReturnType<IFileSystem['stat']>>): GitStat {
  const type = stat.isSymbolicLink ? 'symlink' : stat.isDirectory ? 'dir' : 'file'
  const mtimeMs = stat.mtime.getTime()
  // just-bash gives permission bits only; isomorphic-git reads the file type from the mode
  // (S_IFLNK and S_IFDIR), without which a symlink is staged as an executable file.
  const typeBits = type === 'symlink' ? 0o120000 : type === 'dir' ? 0o040000 : 0o100000
  return {
    type,
    mode: typeBits | (stat.mode & 0o7777),
    size: stat.size,
    // isomorphic-git compares ino/dev/uid/gid with the index's; zero on both sides keeps them
    // equal, so only size, mode and mtime decide whether a file must be hashed again.
    ino: 0,
    dev: 0,
    uid: 0,
    gid: 0,
    mtimeMs,
    ctimeMs: mtimeMs,
    isFile: () => type === 'file',
    isDirectory: () => type === 'dir',
    isSymbolicLink: () => type === 'symlink',
  }
}

export function gitFs(fs: IFileSystem): { promises: GitFsPromises } {
  const promises: GitFsPromises = {
    readFile: (path, options) =>
      coded(async () => {
        const bytes = await fs.readFileBuffer(path)
        return encodingOf(options) ? new TextDecoder().decode(bytes) : bytes
      }),
    writeFile: (path, data, options) =>
      coded(async () => {
        await fs.writeFile(path, data)
        // checkout writes an executable with { mode: 0o777 }; the bit must reach the file.
        const mode = typeof options === 'object' ? (options as { mode?: number }).mode : undefined
        if (mode !== undefined) await fs.chmod(path, mode & 0o777 & ~0o022)
      }),
    unlink: (path) =>
      coded(async () => {
        const stat = await fs.lstat(path)
        if (stat.isDirectory) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, unlink '${path}'`), { code: 'EISDIR' })
        await fs.rm(path)
      }),
    readdir: (path) => coded(() => fs.readdir(path)),
    mkdir: (path) => coded(() => fs.mkdir(path)),
    rmdir: (path) =>
      coded(async () => {
        const stat = await fs.lstat(path)
        if (!stat.isDirectory) throw Object.assign(new Error(`ENOTDIR: not a directory, rmdir '${path}'`), { code: 'ENOTDIR' })
        await fs.rm(path)
      }),
    stat: (path) => coded(async () => toStat(await fs.stat(path))),
    lstat: (path) => coded(async () => toStat(await fs.lstat(path))),
    readlink: (path) => coded(() => fs.readlink(path)),
    symlink: (target, path) => coded(() => fs.symlink(target, path)),
    chmod: (path, mode) => coded(() => fs.chmod(path, mode)),
  }
  return { promises }
}
