/**
 * Bash worker side: which files differ between two commits, with the lines added and removed,
 * as `commit`'s summary and `log --stat` print them (exact renames paired, as git's rename
 * detection finds them at 100%). The line counts come from the `diff` package through
 * unified-diff.ts (Myers, as git's default).
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import { quotePath, repo } from './repo-head'
import { diffFile } from '../../shared/workspace/unified-diff'

export type TreeChange = {
  path: string
  /** Set for a rename: the path it had. */
  from?: string
  oldOid?: string
  newOid?: string
  oldMode?: number
  newMode?: number
  added: number
  removed: number
  binary: boolean
  /** Sizes, for a binary file's `Bin a -> b bytes`. */
  oldSize: number
  newSize: number
}

type Raw = { path: string; oldOid?: string; newOid?: string; oldMode?: number; newMode?: number }

async function rawChanges(ctx: GitContext, from: string | null, to: string): Promise<Raw[]> {
  const trees = from === null ? [git.TREE({ ref: to })] : [git.TREE({ ref: from }), git.TREE({ ref: to })]
  return git.walk({
    ...repo(ctx),
    trees,
    map: async (path, entries) => {
      const [a, b] = from === null ? [null, entries[0]] : entries
      const [aType, bType] = await Promise.all([a?.type(), b?.type()])
      if (aType !== 'blob' && bType !== 'blob') return undefined
      const [oldOid, newOid] = await Promise.all([aType === 'blob' ? a!.oid() : undefined, bType === 'blob' ? b!.oid() : undefined])
      const [oldMode, newMode] = await Promise.all([aType === 'blob' ? a!.mode() : undefined, bType === 'blob' ? b!.mode() : undefined])
      if (oldOid === newOid && oldMode === newMode) return undefined
      const raw: Raw = { path }
      if (oldOid !== undefined) Object.assign(raw, { oldOid, oldMode })
      if (newOid !== undefined) Object.assign(raw, { newOid, newMode })
      return raw
    },
  }) as Promise<Raw[]>
}

async function blob(ctx: GitContext, oid: string | undefined): Promise<Uint8Array | null> {
  if (oid === undefined) return null
  return (await git.readBlob({ ...repo(ctx), oid })).blob
}

/** The files that differ from commit `from` (null: none, a root commit) to commit `to`, by path. */
export async function treeChanges(ctx: GitContext, from: string | null, to: string): Promise<TreeChange[]> {
  const raws = await rawChanges(ctx, from, to)
  // Exact renames: a removed and an added path with the same content.
  const removed = raws.filter((r) => r.newOid === undefined)
  const sources = new Map<Raw, Raw>()
  for (const raw of raws) {
    if (raw.newOid === undefined || raw.oldOid !== undefined) continue
    const source = removed.find((r) => ![...sources.values()].includes(r) && r.oldOid === raw.newOid)
    if (source) sources.set(raw, source)
  }
  const renamedAway = new Set(sources.values())
  const changes: TreeChange[] = []
  for (const raw of raws) {
    if (renamedAway.has(raw)) continue
    const source = sources.get(raw)
    if (source) {
      changes.push({ ...raw, from: source.path, oldOid: source.oldOid!, oldMode: source.oldMode!, added: 0, removed: 0, binary: false, oldSize: 0, newSize: 0 })
      continue
    }
    const [before, after] = await Promise.all([blob(ctx, raw.oldOid), blob(ctx, raw.newOid)])
    const diff = diffFile(raw.path, before, after)
    changes.push({ ...raw, added: diff.added, removed: diff.removed, binary: diff.binary, oldSize: before?.byteLength ?? 0, newSize: after?.byteLength ?? 0 })
  }
  return changes
}

/** `a.txt => b.txt`, or `dir/{a.txt => b.txt}` with the shared part outside, as git prints a rename. */
export function renameText(from: string, to: string): string {
  let prefix = 0
  for (let i = 0; i < Math.min(from.length, to.length) && from[i] === to[i]; i++) if (from[i] === '/') prefix = i + 1
  let suffix = 0
  for (let i = 1; i <= Math.min(from.length, to.length) - prefix && from.at(-i) === to.at(-i); i++) if (from.at(-i) === '/') suffix = i
  if (prefix === 0 && suffix === 0) return `${from} => ${to}`
  const mid = (s: string) => s.slice(prefix, s.length - suffix)
  return `${from.slice(0, prefix)}{${mid(from)} => ${mid(to)}}${from.slice(from.length - suffix)}`
}

/** ` 2 files changed, 3 insertions(+), 1 deletion(-)`, with git's rules for the zeros. */
export function statSummary(changes: TreeChange[]): string {
  const files = changes.length
  if (files === 0) return ' 0 files changed'
  const insertions = changes.reduce((n, c) => n + c.added, 0)
  const deletions = changes.reduce((n, c) => n + c.removed, 0)
  let text = ` ${files} file${files === 1 ? '' : 's'} changed`
  if (insertions || deletions === 0) text += `, ${insertions} insertion${insertions === 1 ? '' : 's'}(+)`
  if (deletions || insertions === 0) text += `, ${deletions} deletion${deletions === 1 ? '' : 's'}(-)`
  return text
}

/** The `create mode`, `delete mode`, `rename` and `mode change` lines under a summary. */
export function summaryLines(changes: TreeChange[]): string[] {
  const mode = (m: number | undefined) => (m ?? 0).toString(8).padStart(6, '0')
  const lines: string[] = []
  for (const c of changes) {
    if (c.from !== undefined) lines.push(` rename ${renameText(c.from, c.path)} (100%)`)
    else if (c.oldOid === undefined) lines.push(` create mode ${mode(c.newMode)} ${quotePath(c.path)}`)
    else if (c.newOid === undefined) lines.push(` delete mode ${mode(c.oldMode)} ${quotePath(c.path)}`)
    else if (c.oldMode !== c.newMode) lines.push(` mode change ${mode(c.oldMode)} => ${mode(c.newMode)} ${quotePath(c.path)}`)
  }
  return lines
}

/** The per-file lines of `--stat` (` a.txt | 2 +-`), fitted to 80 columns as git fits them. */
export function statLines(changes: TreeChange[]): string[] {
  const width = 80
  const names = changes.map((c) => (c.from === undefined ? quotePath(c.path) : renameText(c.from, c.path)))
  const bins = changes.map((c) => (c.binary ? `Bin ${c.oldSize} -> ${c.newSize} bytes` : ''))
  const maxChange = Math.max(0, ...changes.map((c) => (c.binary ? 0 : c.added + c.removed)))
  const binWidth = Math.max(0, ...bins.map((b) => b.length))
  let numberWidth = Math.max(String(maxChange).length, binWidth > 0 ? 3 : 0)
  let nameWidth = Math.max(0, ...names.map((n) => n.length))
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4
  if (nameWidth + numberWidth + 6 + graphWidth > width) {
    const cap = Math.floor((width * 3) / 8) - numberWidth - 6
    if (graphWidth > cap) graphWidth = Math.max(6, cap)
    if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth
    else graphWidth = width - numberWidth - 6 - nameWidth
  }
  const scale = (n: number) => (n === 0 || graphWidth >= maxChange ? n : 1 + Math.floor((n * (graphWidth - 1)) / maxChange))
  return changes.map((c, i) => {
    let name = names[i]!
    if (name.length > nameWidth) {
      // git cuts a long name at the front, after a slash when it can, behind "...".
      let cut = name.slice(name.length - (nameWidth - 3))
      const slash = cut.indexOf('/')
      if (slash !== -1) cut = cut.slice(slash)
      name = `...${cut}`
    }
    if (c.binary) return ` ${name.padEnd(nameWidth)} | ${'Bin'.padStart(numberWidth)} ${c.oldSize} -> ${c.newSize} bytes`
    const graph = `${'+'.repeat(scale(c.added))}${'-'.repeat(scale(c.removed))}`
    return ` ${name.padEnd(nameWidth)} | ${String(c.added + c.removed).padStart(numberWidth)} ${graph}`.trimEnd()
  })
}
