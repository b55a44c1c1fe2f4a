/**
 * Bash worker side: git's --stat (a line per file, a +/- graph fitted to 80 columns, the
 * summary line) and the create/delete/rename lines merge prints after it.
 */

import { structuredPatch } from 'diff'
import { isBinary, type FileChange } from './repo-diff'
import { renameLabel } from './repo-renames'

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

/** Lines added and removed in a text change; null for a binary one. */
export function lineCounts(change: FileChange): { added: number; deleted: number } | null {
  if (isBinary(change.oldBytes) || isBinary(change.newBytes)) return null
  let added = 0
  let deleted = 0
  const patch = structuredPatch('a', 'b', text(change.oldBytes), text(change.newBytes), '', '', { context: 0 })
  for (const hunk of patch.hunks)
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++
      else if (line.startsWith('-')) deleted++
    }
  return { added, deleted }
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** git's --stat: a line per file with a +/- graph fitted to 80 columns, then the summary line. */
export function formatStat(changes: readonly FileChange[], color = false): string {
  if (changes.length === 0) return ''
  const rows = changes.map((change) => ({ change, counts: lineCounts(change) }))
  const width = 80
  const label = (c: FileChange) => (c.from !== undefined ? renameLabel(c.from, c.path) : c.path)
  const maxLen = Math.max(0, ...rows.map((r) => label(r.change).length))
  const maxChange = Math.max(0, ...rows.map((r) => (r.counts ? r.counts.added + r.counts.deleted : 0)))
  const bins = rows.filter((r) => !r.counts).map((r) => `Bin ${r.change.oldBytes.length} -> ${r.change.newBytes.length} bytes`)
  const binWidth = Math.max(0, ...bins.map((b) => b.length))
  let numberWidth = String(maxChange).length
  if (bins.length > 0 && numberWidth < 3) numberWidth = 3
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4
  let nameWidth = maxLen
  if (nameWidth + numberWidth + 6 + graphWidth > width) {
    if (graphWidth > Math.floor((width * 3) / 8) - numberWidth - 6) graphWidth = Math.max(6, Math.floor((width * 3) / 8) - numberWidth - 6)
    if (nameWidth > width - numberWidth - 6 - graphWidth) nameWidth = width - numberWidth - 6 - graphWidth
    else graphWidth = width - numberWidth - 6 - nameWidth
  }
  const scale = (it: number) => (it === 0 ? 0 : 1 + Math.floor((it * (graphWidth - 1)) / maxChange))
  let out = ''
  let insertions = 0
  let deletions = 0
  for (const { change, counts } of rows) {
    let name = label(change)
    if (name.length > nameWidth) name = `...${name.slice(name.length - nameWidth + 3)}`
    name = name.padEnd(nameWidth)
    if (!counts) {
      out += ` ${name} | ${'Bin'.padStart(numberWidth)} ${change.oldBytes.length} -> ${change.newBytes.length} bytes\n`
      continue
    }
    insertions += counts.added
    deletions += counts.deleted
    let { added, deleted } = counts
    const total = added + deleted
    if (graphWidth <= maxChange) {
      let scaled = scale(total)
      if (scaled < 2 && added && deleted) scaled = 2
      if (added < deleted) {
        added = scale(added)
        deleted = scaled - added
      } else {
        deleted = scale(deleted)
        added = scaled - deleted
      }
    }
    const plus = '+'.repeat(added)
    const minus = '-'.repeat(deleted)
    const graph = color ? `${plus && `\x1b[32m${plus}\x1b[m`}${minus && `\x1b[31m${minus}\x1b[m`}` : plus + minus
    out += ` ${name} | ${String(total).padStart(numberWidth)}${total ? ' ' : ''}${graph}\n`
  }
  out += statSummary(changes.length, insertions, deletions)
  return out
}

function statSummary(files: number, insertions: number, deletions: number): string {
  if (files === 0) return ' 0 files changed\n'
  let line = ` ${plural(files, 'file changed', 'files changed')}`
  if (insertions || !deletions) line += `, ${plural(insertions, 'insertion(+)', 'insertions(+)')}`
  if (deletions || !insertions) line += `, ${plural(deletions, 'deletion(-)', 'deletions(-)')}`
  return `${line}\n`
}

/** The " create mode 100644 x" lines git prints after a merge's or commit's stat. */
export function formatSummary(changes: readonly FileChange[]): string {
  let out = ''
  for (const { path, old, new: now, from } of changes) {
    if (from !== undefined) out += ` rename ${renameLabel(from, path)} (100%)\n`
    else if (!old) out += ` create mode ${now!.mode} ${path}\n`
    else if (!now) out += ` delete mode ${old.mode} ${path}\n`
    else if (old.mode !== now.mode) out += ` mode change ${old.mode} => ${now.mode} ${path}\n`
  }
  return out
}

/** `--numstat`: added, deleted and path, tab-separated ("-" for a binary file). */
export function formatNumstat(changes: readonly FileChange[]): string {
  return changes
    .map((c) => {
      const counts = lineCounts(c)
      const name = c.from !== undefined ? renameLabel(c.from, c.path) : c.path
      return counts ? `${counts.added}\t${counts.deleted}\t${name}\n` : `-\t-\t${name}\n`
    })
    .join('')
}

/** `--shortstat`: the summary line alone. */
export function formatShortstat(changes: readonly FileChange[]): string {
  if (changes.length === 0) return ''
  let insertions = 0
  let deletions = 0
  for (const c of changes) {
    const counts = lineCounts(c)
    insertions += counts?.added ?? 0
    deletions += counts?.deleted ?? 0
  }
  return statSummary(changes.length, insertions, deletions)
}
