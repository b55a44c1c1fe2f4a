/**
 * Worker side of moving files in and out of the workspace: writing uploads, listing the files
 * under the root, and zipping the root for download. Works on the session's file system, so
 * symlinks resolve the way the shell sees them.
 */

import { zipSync, type Zippable } from 'fflate'
import type { IFileSystem } from 'just-bash/browser'
import { isGenerated } from './fs-snapshot'
import type { SkippedUpload, UploadFile } from '../shared/messages/bash-worker-api'

/** `rel` (relative, normalized) under `root`. */
function absoluteIn(root: string, rel: string): string {
  return root === '/' ? `/${rel}` : `${root}/${rel}`
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash <= 0 ? '/' : path.slice(0, slash)
}

/**
 * Writes `files` (paths already checked by planUploads) under `root`, creating parent
 * directories. A file the file system refuses (a parent is a file, a directory has the name) is
 * skipped with the reason; the others are still written.
 */
export async function writeWorkspaceFiles(
  fs: IFileSystem,
  root: string,
  files: readonly UploadFile[],
): Promise<{ written: string[]; skipped: SkippedUpload[] }> {
  const written: string[] = []
  const skipped: SkippedUpload[] = []
  for (const file of files) {
    const path = absoluteIn(root, file.path)
    try {
      await fs.mkdir(parentOf(path), { recursive: true })
      const existing = await fs.stat(path).catch(() => null)
      if (existing?.isDirectory) {
        skipped.push({ path: file.path, reason: 'a directory of that name exists' })
        continue
      }
      await fs.writeFile(path, file.data)
      written.push(file.path)
    } catch (error) {
      skipped.push({ path: file.path, reason: error instanceof Error ? error.message : String(error) })
    }
  }
  return { written, skipped }
}

/**
 * Writes whole files and removes others (absolute paths, already checked by the caller): the file
 * tools' writes and /undo's restores. Parents are created; removing a missing file is no error.
 */
export async function putWorkspaceFiles(
  fs: IFileSystem,
  write: ReadonlyArray<readonly [string, string | Uint8Array]>,
  remove: readonly string[],
): Promise<void> {
  for (const path of remove) await fs.rm(path, { force: true })
  for (const [path, content] of write) {
    await fs.mkdir(parentOf(path), { recursive: true })
    await fs.writeFile(path, content)
  }
}

/** Paths under `root` (absolute), just-bash's own trees left out. */
function pathsUnder(fs: IFileSystem, root: string): string[] {
  const prefix = root === '/' ? '/' : `${root}/`
  return fs.getAllPaths().filter((path) => path.startsWith(prefix) && path !== prefix && !isGenerated(path))
}

/**
 * Every file under `root` as a path relative to it, sorted by UTF-16 code unit (stable across
 * locales). A symlink counts when it leads to a file, as `ls` and `cat` would see it.
 */
export async function listWorkspaceFiles(fs: IFileSystem, root: string): Promise<string[]> {
  const cut = root === '/' ? 1 : root.length + 1
  const files: string[] = []
  for (const path of pathsUnder(fs, root)) {
    const stat = await fs.stat(path).catch(() => null) // stat follows symlinks; dangling → null
    if (stat?.isFile) files.push(path.slice(cut))
  }
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
}

/**
 * The whole root as a zip: every file (with its mtime) at its path relative to the root, and
 * every empty directory as a `name/` entry so that unzipping gives back the same tree.
 */
export async function zipWorkspace(fs: IFileSystem, root: string): Promise<Uint8Array> {
  const cut = root === '/' ? 1 : root.length + 1
  const entries: Zippable = {}
  const all = pathsUnder(fs, root)
  const nonEmpty = new Set(all.map(parentOf))
  for (const path of all) {
    const link = await fs.lstat(path).catch(() => null)
    if (link?.isDirectory) {
      if (!nonEmpty.has(path)) entries[`${path.slice(cut)}/`] = new Uint8Array(0)
      continue
    }
    const stat = await fs.stat(path).catch(() => null) // follows a symlink to its file
    if (stat?.isFile) {
      const mtime = zipTime(stat.mtime)
      const data = await fs.readFileBuffer(path)
      entries[path.slice(cut)] = mtime ? [data, { mtime }] : data
    }
  }
  return zipSync(entries)
}

/** `date` if a zip can store it (DOS time: 1980 to 2099); fflate throws otherwise. */
function zipTime(date: Date): Date | undefined {
  const year = date.getFullYear()
  return year >= 1980 && year <= 2099 ? date : undefined
}
