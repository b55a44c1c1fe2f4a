/**
 * Sandbox worker: the workspace files in and out of one Python interpreter's file system. The
 * interpreter is fresh, so only the request's files are under the root when its run starts.
 */

import type { RunRequest } from '../../shared/sandbox/runtime-types'
import type { Pyodide } from './python-interpreter'

type Fs = Pyodide['FS']

/** Puts the request's files in place. */
export function copyIn(fs: Fs, request: RunRequest): void {
  fs.mkdirTree(request.root)
  for (const [path, bytes] of Object.entries(request.files)) {
    fs.mkdirTree(path.slice(0, path.lastIndexOf('/')) || '/')
    fs.writeFile(path, bytes)
  }
}

/** Files created or changed (bytes) and removed (null) under the root, next to the request's. */
export function changesOut(fs: Fs, request: RunRequest): Record<string, Uint8Array | null> {
  const changes: Record<string, Uint8Array | null> = {}
  const now = walk(fs, request.root).filter((path) => !path.includes('/__pycache__/'))
  for (const path of now) {
    const bytes = fs.readFile(path) as Uint8Array
    const before = request.files[path]
    if (!before || before.length !== bytes.length || before.some((byte, i) => byte !== bytes[i])) changes[path] = bytes
  }
  const present = new Set(now)
  for (const path of Object.keys(request.files)) if (!present.has(path)) changes[path] = null
  return changes
}

/** Every file under `dir` (none when it does not exist). */
function walk(fs: Fs, dir: string): string[] {
  let names: string[]
  try {
    names = fs.readdir(dir)
  } catch {
    return []
  }
  const files: string[] = []
  for (const name of names) {
    if (name === '.' || name === '..') continue
    const path = `${dir}/${name}`
    const mode = fs.lstat(path).mode
    if (fs.isDir(mode)) files.push(...walk(fs, path))
    else if (fs.isFile(mode)) files.push(path)
  }
  return files
}
