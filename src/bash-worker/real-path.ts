/**
 * Where a workspace path really leads, symlinks followed, so that a file tool or a sandbox change
 * can be refused when it would land outside the root. Resolved by hand, one segment at a time:
 * just-bash's `realpath` fails for a path that does not exist yet (a file write_file creates), and
 * its `writeFile` does not follow a symlinked folder (the bytes went to an entry no one can read).
 * Writing to the path answered here, which holds no symlink, puts them where the shell sees them.
 */

import type { IFileSystem } from 'just-bash/browser'
import { resolveWorkspacePath } from '../shared/workspace/workspace-paths'

/** As Linux's MAXSYMLINKS: a chain longer than this is a loop as far as anyone can tell. */
export const MAX_SYMLINK_HOPS = 40

/** The few calls the resolution needs; just-bash's file systems have them. */
export type LinkReader = Pick<IFileSystem, 'lstat' | 'readlink'>

export type RealPath = { ok: true; real: string; viaLink: boolean } | { ok: false; reason: 'loop' }

/**
 * `path` (absolute, normalized) with every symlink along it followed. The part past the last
 * existing entry is kept as written (a file about to be created). `viaLink` says whether any
 * symlink was followed.
 */
export async function resolveRealPath(fs: LinkReader, path: string): Promise<RealPath> {
  let pending = path.split('/').filter(Boolean)
  let resolved = '/'
  let hops = 0
  while (pending.length > 0) {
    const [name, ...rest] = pending as [string, ...string[]]
    const candidate = resolved === '/' ? `/${name}` : `${resolved}/${name}`
    const stat = await fs.lstat(candidate).catch(() => null)
    if (!stat) return { ok: true, real: resolveWorkspacePath(pending.join('/'), resolved), viaLink: hops > 0 }
    if (!stat.isSymbolicLink) {
      resolved = candidate
      pending = rest
      continue
    }
    if (++hops > MAX_SYMLINK_HOPS) return { ok: false, reason: 'loop' }
    // A relative target is read from the link's own folder; what is left of the path follows it.
    const target = resolveWorkspacePath(await fs.readlink(candidate), resolved)
    pending = [...target.split('/').filter(Boolean), ...rest]
    resolved = '/'
  }
  return { ok: true, real: resolved, viaLink: hops > 0 }
}

/** Whether the absolute `path` is `root` or below it. */
export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root === '/' ? '/' : `${root}/`)
}
