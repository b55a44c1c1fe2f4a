/**
 * Bash worker side: the diffstat `git pull` prints after a fast-forward (git's `--stat
 * --summary` between the old and the new commit): one line per file with a count and a
 * `+`/`-` bar, the totals, then `create mode` / `delete mode` lines.
 */

import { diffLines } from 'diff'
import git from 'isomorphic-git'
import type { GitContext } from './git-context'

type FileStat = { path: string; added: number; removed: number; binary: boolean; mode?: string; kind: 'create' | 'delete' | 'modify' }

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}

function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0)
}

async function changedFiles(ctx: GitContext, from: string, to: string): Promise<FileStat[]> {
  const repo = { fs: ctx.gitFs, dir: ctx.dir! }
  const stats: FileStat[] = []
  await git.walk({
    ...repo,
    trees: [git.TREE({ ref: from }), git.TREE({ ref: to })],
    map: async (path, [a, b]) => {
      if (path === '.') return true
      const [typeA, typeB] = [await a?.type(), await b?.type()]
      if (typeA === 'tree' || typeB === 'tree') return true
      const [oidA, oidB] = [await a?.oid(), await b?.oid()]
      if (oidA === oidB) return null
      const before = a ? ((await a.content()) ?? new Uint8Array()) : new Uint8Array()
      const after = b ? ((await b.content()) ?? new Uint8Array()) : new Uint8Array()
      const kind = !a ? 'create' : !b ? 'delete' : 'modify'
      const mode = ((kind === 'delete' ? await a!.mode() : await b?.mode()) ?? 0o100644).toString(8)
      if (isBinary(before) || isBinary(after)) {
        stats.push({ path, added: before.length, removed: after.length, binary: true, mode, kind })
        return null
      }
      const decoder = new TextDecoder()
      let added = 0
      let removed = 0
      for (const part of diffLines(decoder.decode(before), decoder.decode(after))) {
        if (part.added) added += lineCount(part.value)
        if (part.removed) removed += lineCount(part.value)
      }
      stats.push({ path, added, removed, binary: false, mode, kind })
      return null
    },
  })
  return stats.sort((x, y) => (x.path < y.path ? -1 : 1))
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/** git's stat and summary between commits `from` and `to` ('' when no file differs). */
export async function diffstat(ctx: GitContext, from: string, to: string): Promise<string> {
  const stats = await changedFiles(ctx, from, to)
  if (stats.length === 0) return ''
  const nameWidth = Math.max(...stats.map((s) => s.path.length))
  const countWidth = Math.max(...stats.map((s) => String(s.binary ? 'Bin' : s.added + s.removed).length))
  const graphWidth = Math.max(6, 80 - nameWidth - countWidth - 6)
  const most = Math.max(...stats.map((s) => (s.binary ? 0 : s.added + s.removed)))
  const scale = (n: number) => (most > graphWidth ? Math.round((n * graphWidth) / most) || (n > 0 ? 1 : 0) : n)
  let out = ''
  for (const s of stats) {
    const name = s.path.padEnd(nameWidth)
    if (s.binary) out += ` ${name} | Bin ${s.removed} -> ${s.added} bytes\n`
    else out += ` ${name} | ${String(s.added + s.removed).padStart(countWidth)} ${'+'.repeat(scale(s.added))}${'-'.repeat(scale(s.removed))}`.trimEnd() + '\n'
  }
  const added = stats.reduce((n, s) => n + (s.binary ? 0 : s.added), 0)
  const removed = stats.reduce((n, s) => n + (s.binary ? 0 : s.removed), 0)
  const parts = [plural(stats.length, 'file changed', 'files changed')]
  if (added > 0 || removed === 0) parts.push(`${plural(added, 'insertion(+)', 'insertions(+)')}`)
  if (removed > 0 || added === 0) parts.push(`${plural(removed, 'deletion(-)', 'deletions(-)')}`)
  out += ` ${parts.join(', ')}\n`
  for (const s of stats) if (s.kind !== 'modify') out += ` ${s.kind} mode ${s.mode} ${s.path}\n`
  return out
}
