/**
 * A folder of the person's computer as the workspace (`/open`, File System Access API): its
 * files are read in, and every change the agent makes is written back. Reading skips
 * `node_modules` and what the folder's `.gitignore` names (npm `ignore` reads the patterns the
 * way git does), and stops at a cap. A top-level `.git` comes in whole or not at all, under a cap
 * of its own, so `git` works on the folder's real repository and its commits are written back
 * to it; a part of a repository would be a broken one. Runs on the page, where the handle is.
 */
import ignore, { type Ignore } from 'ignore'
import { messageOf } from '../../shared/workspace/exec-result'
import type { SnapshotDelta, SnapshotEntry } from './snapshot-store'

/** At most this many files, or this many bytes, are read in; the rest are left on disk. */
export const FOLDER_MAX_FILES = 5000
export const FOLDER_MAX_BYTES = 50 * 1024 * 1024
const ALWAYS_SKIPPED = new Set(['node_modules', '.git'])
/** A top-level .git is read whole when it holds at most this many files and bytes. */
export const FOLDER_GIT_MAX_FILES = 20_000
export const FOLDER_GIT_MAX_BYTES = 200 * 1024 * 1024

/** The folder's files by path relative to it, and what was left out. */
export type FolderRead = {
  files: Array<[string, Uint8Array]>
  ignored: number
  overCap: number
  /** The top-level .git: read whole, too large (with its size), or absent. */
  git: 'read' | { files: number; bytes: number } | null
}

/** Every file under `handle` (no rules), or null once more than the caps allow. */
async function readWhole(handle: FileSystemDirectoryHandle, prefix: string): Promise<Array<[string, Uint8Array]> | { files: number; bytes: number }> {
  const files: Array<[string, File]> = []
  let bytes = 0
  const walk = async (dir: FileSystemDirectoryHandle, at: string): Promise<void> => {
    for await (const entry of (dir as DirectoryHandle).values()) {
      if (entry.kind === 'directory') await walk(entry as FileSystemDirectoryHandle, `${at}${entry.name}/`)
      else {
        const file = await (entry as FileSystemFileHandle).getFile()
        bytes += file.size
        files.push([`${at}${entry.name}`, file])
      }
    }
  }
  await walk(handle, prefix)
  if (files.length > FOLDER_GIT_MAX_FILES || bytes > FOLDER_GIT_MAX_BYTES) return { files: files.length, bytes }
  return Promise.all(files.map(async ([path, file]): Promise<[string, Uint8Array]> => [path, new Uint8Array(await file.arrayBuffer())]))
}

type DirectoryHandle = FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> }

export async function readFolder(dir: FileSystemDirectoryHandle): Promise<FolderRead> {
  const rules: Ignore = ignore()
  try {
    const gitignore = await (await dir.getFileHandle('.gitignore')).getFile()
    rules.add(await gitignore.text())
  } catch {
    // no .gitignore: only the folders always skipped are
  }
  const read: FolderRead = { files: [], ignored: 0, overCap: 0, git: null }
  const gitDir = await dir.getDirectoryHandle('.git').catch(() => null)
  if (gitDir) {
    const whole = await readWhole(gitDir, '.git/')
    read.git = Array.isArray(whole) ? 'read' : whole
    if (Array.isArray(whole)) read.files.push(...whole)
  }
  const repository = read.files.length
  let bytes = 0
  const walk = async (handle: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
    for await (const entry of (handle as DirectoryHandle).values()) {
      const path = prefix + entry.name
      const isDir = entry.kind === 'directory'
      if (isDir && path === '.git') continue // read above, whole or not at all
      if ((isDir && ALWAYS_SKIPPED.has(entry.name)) || rules.ignores(isDir ? `${path}/` : path)) {
        read.ignored++
        continue
      }
      if (isDir) {
        await walk(entry as FileSystemDirectoryHandle, `${path}/`)
        continue
      }
      const file = await (entry as FileSystemFileHandle).getFile()
      if (read.files.length - repository >= FOLDER_MAX_FILES || bytes + file.size > FOLDER_MAX_BYTES) {
        read.overCap++
        continue
      }
      bytes += file.size
      read.files.push([path, new Uint8Array(await file.arrayBuffer())])
    }
  }
  await walk(dir, '')
  return read
}

/** Writes a change (absolute paths under `root`) into the folder: parents made, files replaced whole, removals removed. */
export async function writeToFolder(dir: FileSystemDirectoryHandle, root: string, delta: SnapshotDelta): Promise<void> {
  const relative = (path: string) => (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : null)
  const parentOf = async (parts: string[]) => {
    let handle = dir
    for (const part of parts) handle = await handle.getDirectoryHandle(part, { create: true })
    return handle
  }
  for (const path of delta.removed) {
    const rel = relative(path)
    if (!rel) continue
    const parts = rel.split('/')
    try {
      await (await parentOf(parts.slice(0, -1))).removeEntry(parts.at(-1)!, { recursive: true })
    } catch (error) {
      if ((error as DOMException).name !== 'NotFoundError') throw error
    }
  }
  for (const [path, entry] of delta.changed) {
    const rel = relative(path)
    if (!rel) continue
    const parts = rel.split('/')
    if (entry.kind === 'dir') {
      await parentOf(parts)
      continue
    }
    if (entry.kind !== 'file') continue // a symlink has no place in a folder handle
    const file = await (await parentOf(parts.slice(0, -1))).getFileHandle(parts.at(-1)!, { create: true })
    // A writable stream replaces the file only when closed: a tab closed mid-write leaves the old one.
    const writable = await file.createWritable()
    await writable.write(typeof entry.content === 'string' ? entry.content : (entry.content as Uint8Array<ArrayBuffer>))
    await writable.close()
  }
}

/** The folder's files as snapshot entries under `root`. */
export function folderEntries(read: FolderRead, root: string): Array<[string, SnapshotEntry]> {
  return read.files.map(([path, bytes]): [string, SnapshotEntry] => [`${root}/${path}`, { kind: 'file', content: bytes }])
}

/** The opened folder of a workspace: changes go to it in order until one fails. */
export type FolderMirror = {
  /** Reads `dir` in; answers its entries under the root and the line to show. Changes go to it from then on. */
  open(dir: FileSystemDirectoryHandle): Promise<{ entries: Array<[string, SnapshotEntry]>; line: string }>
  /** Writes a change to the open folder, if any. */
  changed(delta: SnapshotDelta): void
  /** Every write so far has settled. */
  settled(): Promise<void>
}

/** `tell` gets one line when a write fails (permission revoked, disk full): the files then stay in the tab. */
export function createFolderMirror(root: string, tell: (line: string) => void): FolderMirror {
  let folder: FileSystemDirectoryHandle | null = null
  let writes: Promise<void> = Promise.resolve()
  return {
    async open(dir) {
      const read = await readFolder(dir)
      folder = dir
      const git = read.git
      const left = [
        git === 'read' ? 'its git repository with them' : '',
        git !== null && git !== 'read'
          ? `its .git left on disk (${git.files.toLocaleString('en-US')} files, ${Math.ceil(git.bytes / 1024 / 1024)} MB: over ${FOLDER_GIT_MAX_FILES.toLocaleString('en-US')} files or ${FOLDER_GIT_MAX_BYTES / 1024 / 1024} MB)`
          : '',
        read.ignored > 0 ? `${read.ignored} skipped (node_modules, .gitignore)` : '',
        read.overCap > 0 ? `${read.overCap} left out over the cap of ${FOLDER_MAX_FILES.toLocaleString('en-US')} files or ${FOLDER_MAX_BYTES / 1024 / 1024} MB` : '',
      ].filter(Boolean)
      const own = read.files.filter(([path]) => !path.startsWith('.git/')).length
      const count = `${own} file${own === 1 ? '' : 's'} read`
      return { entries: folderEntries(read, root), line: `Opened the folder ${dir.name}: ${count}${left.length ? `, ${left.join(', ')}` : ''}. The agent's changes are written to it.` }
    },
    changed(delta) {
      const open = folder
      if (!open) return
      writes = writes
        .then(() => writeToFolder(open, root, delta))
        .catch((error: unknown) => {
          if (folder !== open) return
          folder = null
          tell(`fxterm: the folder ${open.name} could not be written (${messageOf(error)}); the files stay in this tab (/download saves them)`)
        })
    },
    settled: () => writes,
  }
}
