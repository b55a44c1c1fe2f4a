/**
 * A workspace's starting files: the `files` option, and those fetched from `filesUrl` on first
 * use (a failed download is told on the next command; the workspace starts without them). On a
 * path in both, `files` wins. Kept apart for /new (the seed a new session starts from) and
 * /export tape (the text files it started with).
 */
import { messageOf } from '../../shared/workspace/exec-result'
import { loadSeedEntries } from './seed-source'
import type { Snapshot } from './snapshot-store'
import { resolveWorkspacePath } from '../../shared/workspace/workspace-paths'

export type WorkspaceSeed = {
  /** Fetches `filesUrl` once and adds its files to the snapshot where `files` has none. */
  load(): Promise<void>
  /** The files fetched from `filesUrl`. */
  readonly fetched: Snapshot
  /** The starting text files by path relative to the root. */
  startingFiles(): Record<string, string>
}

export function createWorkspaceSeed(options: {
  files?: Record<string, string>
  filesUrl?: string
  fetch?: typeof fetch
  root: string
  /** The workspace's files, which the fetched ones join. */
  snapshot: Snapshot
  note(line: string): void
}): WorkspaceSeed {
  const { root, snapshot } = options
  const fetched: Snapshot = new Map()
  const starting: Record<string, string> = {}
  for (const [path, content] of Object.entries(options.files ?? {})) starting[relativeTo(root, resolveWorkspacePath(path, root))] = content
  let loading: Promise<void> | null = null
  return {
    fetched,
    startingFiles: () => ({ ...starting }),
    load() {
      const url = options.filesUrl
      if (!url) return Promise.resolve()
      loading ??= loadSeedEntries(url, root, options.fetch ?? globalThis.fetch.bind(globalThis)).then(
        (entries) => {
          for (const [path, entry] of entries) {
            fetched.set(path, entry)
            if (snapshot.has(path)) continue
            snapshot.set(path, entry)
            if (entry.kind === 'file' && typeof entry.content === 'string') starting[relativeTo(root, path)] = entry.content
          }
        },
        (error: unknown) => options.note(`fxterm: could not load the workspace files from ${url} (${messageOf(error)}); the workspace started without them`),
      )
      return loading
    },
  }
}

/** `path` (absolute, under `root`) relative to `root`. */
function relativeTo(root: string, path: string): string {
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path
}
