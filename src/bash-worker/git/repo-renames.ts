/**
 * Bash worker side: git's rename detection, for the exact case (a file deleted and one added
 * with the same content, as `git mv` leaves them), and how git names a rename in --stat
 * (`dir/{old => new}`). Renames with edits (git's similarity index below 100%) stay a
 * deletion and an addition.
 */

import type { FileChange } from './repo-diff'

/** Pairs each added file with an unpaired deleted one of the same content, as a rename. */
export function pairExactRenames(changes: FileChange[]): FileChange[] {
  const deleted = changes.filter((c) => c.new === null)
  const used = new Set<FileChange>()
  const renamed = new Map<FileChange, FileChange>()
  for (const added of changes) {
    if (added.old !== null || added.new === null) continue
    const source = deleted.find((d) => !used.has(d) && d.old!.oid === added.new!.oid)
    if (!source) continue
    used.add(source)
    renamed.set(added, { ...added, from: source.path, old: source.old, oldBytes: source.oldBytes })
  }
  return changes.filter((c) => !used.has(c)).map((c) => renamed.get(c) ?? c)
}

/** git's pprint_rename: the common leading directories and trailing path outside braces. */
export function renameLabel(a: string, b: string): string {
  let pfx = 0
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i++) if (a[i] === '/') pfx = i + 1
  let sfx = 0
  const adjust = pfx ? 1 : 0
  for (let i = a.length, j = b.length; i >= pfx - adjust && j >= pfx - adjust && (a[i] ?? '') === (b[j] ?? ''); i--, j--) {
    if (a[i] === '/') sfx = a.length - i
  }
  const aMid = a.slice(pfx, Math.max(pfx, a.length - sfx))
  const bMid = b.slice(pfx, Math.max(pfx, b.length - sfx))
  if (pfx + sfx === 0) return `${a} => ${b}`
  return `${a.slice(0, pfx)}{${aMid} => ${bMid}}${a.slice(a.length - sfx)}`
}
