/**
 * Worker side of the file snapshot (see snapshot-store.ts): builds a just-bash file system from
 * snapshot entries, and reports what commands changed since the last report.
 */

import type { FileInit, FsStat, IFileSystem } from 'just-bash/browser'
import type { SnapshotDelta, SnapshotEntry } from '../shared/messages/bash-worker-api'
import { TrackedFs } from './tracked-fs'

/**
 * Trees just-bash creates itself on every `new Bash()` (command stubs, devices, /proc). They are
 * left out of snapshots: restoring them is pointless, and each new Bash rewrites them.
 */
const GENERATED_TREES = ['/bin', '/usr/bin', '/dev', '/proc']
const GENERATED_DIRS = new Set(['/', '/usr'])

/** Whether `path` is one of just-bash's own trees (or their parents), left out of snapshots. */
export function isGenerated(path: string): boolean {
  if (GENERATED_DIRS.has(path)) return true
  return GENERATED_TREES.some((tree) => path === tree || path.startsWith(`${tree}/`))
}

/** Builds an in-memory file system holding `entries`, plus the directories in `ensureDirs`. */
export async function createSnapshotFs(
  entries: Iterable<[string, SnapshotEntry]>,
  ensureDirs: readonly string[],
): Promise<TrackedFs> {
  const files: Record<string, FileInit> = {}
  const dirs: Array<[string, SnapshotEntry & { kind: 'dir' }]> = []
  const symlinks: Array<[string, string]> = []
  for (const [path, entry] of entries) {
    if (entry.kind === 'file') {
      files[path] = {
        content: entry.content,
        ...(entry.mode === undefined ? {} : { mode: entry.mode }),
        ...(entry.mtimeMs === undefined ? {} : { mtime: new Date(entry.mtimeMs) }),
      }
    } else if (entry.kind === 'dir') dirs.push([path, entry])
    else symlinks.push([path, entry.target])
  }
  const fs = new TrackedFs(files)
  for (const dir of ensureDirs) await fs.mkdir(dir, { recursive: true })
  for (const [path, entry] of dirs) {
    await fs.mkdir(path, { recursive: true })
    if (entry.mode !== undefined) await fs.chmod(path, entry.mode)
  }
  for (const [path, target] of symlinks) {
    await fs.mkdir(parentOf(path), { recursive: true })
    await fs.symlink(target, path)
  }
  return fs
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash <= 0 ? '/' : path.slice(0, slash)
}

/** Reports file system changes since the previous call (or since creation). */
export type ChangeTracker = { changes(): Promise<SnapshotDelta> }

/**
 * Reports the changes to `fs`: from the paths a TrackedFs saw written (cheap: only those are
 * read), or else by comparing a signature per path.
 */
export async function createChangeTracker(fs: IFileSystem): Promise<ChangeTracker> {
  if (fs instanceof TrackedFs && fs.takeDirty() !== null) {
    return {
      async changes() {
        const delta: SnapshotDelta = { changed: [], removed: [] }
        for (const path of fs.takeDirty() ?? []) {
          if (isGenerated(path)) continue
          const entry = await readEntry(fs, path)
          if (entry) delta.changed.push([path, entry])
          else delta.removed.push(path)
        }
        return delta
      },
    }
  }
  return createScanningTracker(fs)
}

/**
 * Tracks `fs` by a signature per path. InMemoryFs gives every written entry a new `identity`,
 * so a rewrite is seen even with the same size and mtime; the mode is added because chmod keeps
 * the identity.
 */
export async function createScanningTracker(fs: IFileSystem): Promise<ChangeTracker> {
  let known = await signatures(fs)
  return {
    async changes() {
      const current = await signatures(fs)
      const delta: SnapshotDelta = { changed: [], removed: [] }
      for (const path of known.keys()) if (!current.has(path)) delta.removed.push(path)
      for (const [path, signature] of current) {
        if (known.get(path) === signature) continue
        const entry = await readEntry(fs, path)
        if (entry) delta.changed.push([path, entry])
      }
      known = current
      return delta
    },
  }
}

async function signatures(fs: IFileSystem): Promise<Map<string, string>> {
  const result = new Map<string, string>()
  for (const path of fs.getAllPaths()) {
    if (isGenerated(path)) continue
    const stat = await lstatOrNull(fs, path)
    if (stat) result.set(path, signatureOf(stat))
  }
  return result
}

function signatureOf(stat: FsStat): string {
  const kind = stat.isSymbolicLink ? 'l' : stat.isDirectory ? 'd' : 'f'
  return `${kind}:${stat.identity ?? ''}:${stat.mtime.getTime()}:${stat.size}:${stat.mode}`
}

async function lstatOrNull(fs: IFileSystem, path: string): Promise<FsStat | null> {
  try {
    return await fs.lstat(path)
  } catch {
    return null // removed between listing and stat
  }
}

async function readEntry(fs: IFileSystem, path: string): Promise<SnapshotEntry | null> {
  try {
    const stat = await fs.lstat(path)
    if (stat.isSymbolicLink) return { kind: 'symlink', target: await fs.readlink(path) }
    if (stat.isDirectory) return { kind: 'dir', mode: stat.mode, mtimeMs: stat.mtime.getTime() }
    // The buffer is InMemoryFs's own; it is copied when posted, and writes replace it, never mutate.
    const content = await fs.readFileBuffer(path)
    return { kind: 'file', content, mode: stat.mode, mtimeMs: stat.mtime.getTime() }
  } catch {
    return null
  }
}
