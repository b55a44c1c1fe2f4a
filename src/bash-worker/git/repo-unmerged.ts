/**
 * Bash worker side: a merge in progress, as git records it: MERGE_HEAD (the commit being
 * merged) and the index's conflict stages (1 base, 2 ours, 3 theirs). `status` shows them and
 * `commit` concludes the merge. isomorphic-git keeps the stages but does not say which a path
 * has, so the index (versions 2 and 3, what git and isomorphic-git write) is read here.
 */

import type { GitContext } from './git-context'
import { joinPath } from './git-paths'
import { repo } from './repo-head'

/** The commit MERGE_HEAD names, or null when no merge is in progress. */
export async function mergeHead(ctx: GitContext): Promise<string | null> {
  const text = await ctx.fs.readFile(joinPath(repo(ctx).gitdir, 'MERGE_HEAD')).catch(() => null)
  return text?.trim().split('\n')[0] || null
}

/** Every path with conflict stages, with the stages it has. */
export async function unmergedPaths(ctx: GitContext): Promise<Map<string, Set<number>>> {
  const found = new Map<string, Set<number>>()
  const bytes = await ctx.fs.readFileBuffer(joinPath(repo(ctx).gitdir, 'index')).catch(() => null)
  if (bytes === null || bytes.length < 12) return found
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const version = view.getUint32(4)
  if (version !== 2 && version !== 3) return found
  const count = view.getUint32(8)
  let at = 12
  for (let i = 0; i < count && at + 62 <= bytes.length; i++) {
    const flags = view.getUint16(at + 60)
    const extended = version === 3 && (flags & 0x4000) !== 0
    const nameAt = at + 62 + (extended ? 2 : 0)
    let end = nameAt
    while (end < bytes.length && bytes[end] !== 0) end++
    const stage = (flags >> 12) & 3
    if (stage > 0) {
      const path = new TextDecoder().decode(bytes.subarray(nameAt, end))
      found.set(path, (found.get(path) ?? new Set()).add(stage))
    }
    // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
    const length = end - at
    at += (length + 8) & ~7
  }
  return found
}

/** git's words and short code for a conflict, by the stages present. */
export function conflictKind(stages: Set<number>): { label: string; code: string } {
  const key = [1, 2, 3].map((s) => (stages.has(s) ? s : '')).join('')
  const kinds: Record<string, { label: string; code: string }> = {
    '123': { label: 'both modified', code: 'UU' },
    '23': { label: 'both added', code: 'AA' },
    '12': { label: 'deleted by them', code: 'UD' },
    '13': { label: 'deleted by us', code: 'DU' },
    '2': { label: 'added by us', code: 'AU' },
    '3': { label: 'added by them', code: 'UA' },
    '1': { label: 'both deleted', code: 'DD' },
  }
  return kinds[key] ?? { label: 'both modified', code: 'UU' }
}
