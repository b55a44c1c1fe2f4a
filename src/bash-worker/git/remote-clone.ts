/**
 * Bash worker side: the work of `git clone`, kept apart from its options and output. The
 * repository is fetched and checked out in a scratch in-memory file system first, and only a
 * finished clone enters the workspace: written under a hidden name beside the target, then
 * renamed. So a network failure, a size cap, Ctrl+C or the command deadline mid-transfer
 * leaves nothing behind. (That matters for the deadline in particular: just-bash revokes the
 * command's file system when it stops a command, so cleaning up after the fact would fail.)
 */

import git from 'isomorphic-git'
import { InMemoryFs, type IFileSystem } from 'just-bash/browser'
import { gitFs, type GitFsPromises } from './git-fs'
import { remoteHttp, RemoteTooBigError } from './remote-http'

/** A clone whose checkout would hold more files than this is refused. */
export const MAX_CLONE_FILES = 20_000
/** A clone that receives, or whose checkout would write, more bytes than this is refused. */
export const MAX_CLONE_BYTES = 200 * 1024 * 1024

export type CloneLimits = { maxFiles: number; maxBytes: number }

export type CloneRequest = {
  url: string
  /** Absolute path of the directory to create (absent, or an empty directory). */
  target: string
  branch?: string
  depth?: number
  proxy: string | null
  signal?: AbortSignal
  limits?: CloneLimits
}

export type CloneOutcome = { empty: boolean }

const SCRATCH = '/repo'

function megabytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`
  return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`
}

function tooBig(what: string, limits: CloneLimits): RemoteTooBigError {
  return new RemoteTooBigError(
    `the repository is too big for fxterm's git: ${what} (the limits are ${limits.maxFiles.toLocaleString('en-US')} files and ${megabytes(limits.maxBytes)})`,
  )
}

/** Counts the files in commit `oid`'s tree, stopping as soon as the count passes `max`. */
async function countFiles(fs: { promises: GitFsPromises }, oid: string, max: number): Promise<number> {
  let count = 0
  const pending = [oid]
  while (pending.length > 0 && count <= max) {
    const { tree } = await git.readTree({ fs, dir: SCRATCH, oid: pending.pop()! })
    for (const entry of tree) {
      if (entry.type === 'tree') pending.push(entry.oid)
      else count++
    }
  }
  return count
}

/** `fs` that counts the bytes written to the work tree and refuses past `maxBytes`. */
function countingWrites(fs: { promises: GitFsPromises }, limits: CloneLimits): { promises: GitFsPromises } {
  let written = 0
  return {
    promises: {
      ...fs.promises,
      async writeFile(path, data, options) {
        if (!path.startsWith(`${SCRATCH}/.git/`)) {
          written += typeof data === 'string' ? data.length : data.byteLength
          if (written > limits.maxBytes) throw tooBig(`its files hold more than ${megabytes(limits.maxBytes)}`, limits)
        }
        return fs.promises.writeFile(path, data, options)
      },
    },
  }
}

/** Copies the scratch tree at `from` into `fs` at `to` (which must not exist). */
async function copyTree(scratch: IFileSystem, from: string, fs: IFileSystem, to: string): Promise<void> {
  await fs.mkdir(to)
  for (const name of await scratch.readdir(from)) {
    const source = `${from}/${name}`
    const dest = `${to}/${name}`
    const stat = await scratch.lstat(source)
    if (stat.isDirectory) await copyTree(scratch, source, fs, dest)
    else if (stat.isSymbolicLink) await fs.symlink(await scratch.readlink(source), dest)
    else {
      await fs.writeFile(dest, await scratch.readFileBuffer(source))
      if (stat.mode & 0o111) await fs.chmod(dest, stat.mode)
    }
  }
}

function hiddenSibling(target: string): string {
  const slash = target.lastIndexOf('/')
  const suffix = Math.random().toString(36).slice(2, 10)
  return `${target.slice(0, slash)}/.${target.slice(slash + 1)}.clone-${suffix}`
}

/** Clones `request.url` into `request.target` in `fs`; throws (leaving `fs` as it was) on failure. */
export async function cloneRepository(fs: IFileSystem, request: CloneRequest): Promise<CloneOutcome> {
  const limits = request.limits ?? { maxFiles: MAX_CLONE_FILES, maxBytes: MAX_CLONE_BYTES }
  const scratch = new InMemoryFs()
  await scratch.mkdir(SCRATCH, { recursive: true })
  const scratchGit = gitFs(scratch)
  const http = remoteHttp({
    proxy: request.proxy,
    ...(request.signal ? { signal: request.signal } : {}),
    maxResponseBytes: limits.maxBytes,
    tooBig: () => tooBig(`more than ${megabytes(limits.maxBytes)} to download`, limits).message,
  })
  await git.clone({
    fs: scratchGit,
    http,
    dir: SCRATCH,
    url: request.url,
    corsProxy: '',
    noCheckout: true,
    ...(request.branch !== undefined ? { ref: request.branch } : {}),
    ...(request.depth !== undefined ? { depth: request.depth, singleBranch: true } : {}),
  })
  const head = await git.resolveRef({ fs: scratchGit, dir: SCRATCH, ref: 'HEAD' }).catch(() => null)
  if (head !== null) {
    const files = await countFiles(scratchGit, head, limits.maxFiles)
    if (files > limits.maxFiles) throw tooBig(`more than ${limits.maxFiles.toLocaleString('en-US')} files`, limits)
    const branch = await git.currentBranch({ fs: scratchGit, dir: SCRATCH })
    await git.checkout({ fs: countingWrites(scratchGit, limits), dir: SCRATCH, ref: branch ?? head })
  }
  request.signal?.throwIfAborted()

  const hidden = hiddenSibling(request.target)
  try {
    await copyTree(scratch, SCRATCH, fs, hidden)
    if (await fs.exists(request.target)) await fs.rm(request.target, { recursive: true })
    await fs.mv(hidden, request.target)
  } catch (error) {
    await fs.rm(hidden, { recursive: true, force: true }).catch(() => {})
    throw error
  }
  return { empty: head === null }
}
