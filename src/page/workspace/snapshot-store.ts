/**
 * The main thread's copy of the workspace files. The bash worker reports what each command
 * changed; if the worker ever has to be terminated (a command that ignores abort), a new worker
 * is seeded from this copy, so only the killed command's own changes are lost. Pure: it must not
 * import just-bash, which is only loaded inside the worker.
 */

import { resolveWorkspacePath } from '../../shared/workspace/workspace-paths'
import type { SnapshotEntry, SnapshotDelta } from '../../shared/messages/bash-worker-api.ts'
export type { SnapshotEntry, SnapshotDelta } from '../../shared/messages/bash-worker-api.ts'

/** Absolute path → entry. */
export type Snapshot = Map<string, SnapshotEntry>

/** A snapshot holding the seed files; relative paths are taken from `root`. */
export function seedSnapshot(files: Record<string, string> | undefined, root: string): Snapshot {
  const snapshot: Snapshot = new Map()
  for (const [path, content] of Object.entries(files ?? {})) {
    snapshot.set(resolveWorkspacePath(path, root), { kind: 'file', content })
  }
  return snapshot
}

/** Applies a worker's change report to the main thread's copy. */
export function applySnapshotDelta(snapshot: Snapshot, delta: SnapshotDelta): void {
  for (const path of delta.removed) snapshot.delete(path)
  for (const [path, entry] of delta.changed) snapshot.set(path, entry)
}

/**
 * A file's text straight from the snapshot, or `undefined` when the snapshot cannot answer alone
 * (a symlink might lead there). Lets `readFile` work before the worker, and just-bash, are loaded.
 */
export function readSnapshotFile(snapshot: Snapshot, path: string): string | null | undefined {
  const entry = snapshot.get(path)
  if (entry?.kind === 'file') {
    return typeof entry.content === 'string' ? entry.content : new TextDecoder().decode(entry.content)
  }
  if (entry?.kind === 'dir') return null
  const hasSymlinks = [...snapshot.values()].some((candidate) => candidate.kind === 'symlink')
  return hasSymlinks ? undefined : null
}
