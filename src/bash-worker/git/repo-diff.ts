/**
 * Bash worker side: the changes between two sides (a tree, the index or the work tree) and
 * how git prints them: patches with hunks of three lines of context, --stat, --name-only,
 * --name-status. diff, show, stash and merge all print through here so they agree.
 */

import { structuredPatch } from 'diff'
import type { GitContext } from './git-context'
import { pairExactRenames } from './repo-renames'
import { blobBytes, sameEntry, type Entries, type Entry } from './repo-entries'

/** One side of a comparison: its entries, and how to read an entry's bytes. */
export type Side = { entries: Entries; read(path: string, entry: Entry): Promise<Uint8Array> }

export type FileChange = {
  path: string
  /** The old path when the change is a rename (see repo-renames.ts). */
  from?: string
  old: Entry | null
  new: Entry | null
  oldBytes: Uint8Array
  newBytes: Uint8Array
}

export function objectSide(ctx: GitContext, entries: Entries): Side {
  return { entries, read: (_path, entry) => blobBytes(ctx, entry.oid) }
}

export function workdirSide(ctx: GitContext, entries: Entries): Side {
  return { entries, read: (path) => ctx.fs.readFileBuffer(`${ctx.dir === '/' ? '' : ctx.dir}/${path}`) }
}

/** Whether `path` (relative to the work tree's top) is one of `specs` or under one. */
export function matchesPathspec(path: string, specs: readonly string[]): boolean {
  return specs.length === 0 || specs.some((spec) => spec === '' || path === spec || path.startsWith(`${spec}/`))
}

/** Pathspecs as typed (relative to cwd) made relative to the work tree's top; null when outside it. */
export function repoPathspecs(ctx: GitContext, specs: readonly string[]): string[] | null {
  const out: string[] = []
  for (const spec of specs) {
    const abs = ctx.fs.resolvePath(ctx.cwd, spec)
    const dir = ctx.dir!
    if (abs === dir) out.push('')
    else if (abs.startsWith(dir === '/' ? '/' : `${dir}/`)) out.push(abs.slice(dir === '/' ? 1 : dir.length + 1))
    else return null
  }
  return out
}

/** The changes from `a` to `b` under `specs`, path order, exact renames paired as git pairs them. */
export async function collectChanges(a: Side, b: Side, specs: readonly string[] = []): Promise<FileChange[]> {
  const paths = [...new Set([...a.entries.keys(), ...b.entries.keys()])].filter((p) => matchesPathspec(p, specs)).sort()
  const changes: FileChange[] = []
  for (const path of paths) {
    const old = a.entries.get(path)
    const now = b.entries.get(path)
    if (sameEntry(old, now)) continue
    changes.push({
      path,
      old: old ?? null,
      new: now ?? null,
      oldBytes: old ? await a.read(path, old) : new Uint8Array(),
      newBytes: now ? await b.read(path, now) : new Uint8Array(),
    })
  }
  return pairExactRenames(changes)
}

export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 8000).includes(0)
}

const ZERO = '0000000'
const short = (oid: string | undefined) => (oid ? oid.slice(0, 7) : ZERO)
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

// git's default colours; its new lines colour the sign and the text apart, and end context in a reset.
type Paint = { meta(s: string): string; frag(s: string): string; func(s: string): string; removed(s: string): string; added(s: string): string; context(s: string): string }
const PLAIN: Paint = { meta: (s) => s, frag: (s) => s, func: (s) => s, removed: (s) => s, added: (s) => s, context: (s) => s }
const COLOUR: Paint = {
  meta: (s) => `\x1b[1m${s}\x1b[m`,
  frag: (s) => `\x1b[36m${s}\x1b[m`,
  func: (s) => (s === '' ? '' : ` \x1b[m${s.slice(1)}\x1b[m`),
  removed: (s) => `\x1b[31m${s}\x1b[m`,
  added: (s) => `\x1b[32m+\x1b[m\x1b[32m${s.slice(1)}\x1b[m`,
  context: (s) => (s.startsWith('\\') ? s : `${s}\x1b[m`),
}

/** git's default function-name line for a hunk: the nearest line above it starting with a letter, _ or $. */
function funcName(lines: readonly string[], before: number): string {
  for (let i = before; i >= 0; i--) {
    const line = lines[i]!
    if (/^[A-Za-z_$]/.test(line)) return ` ${line.slice(0, 80).replace(/\s+$/, '')}`
  }
  return ''
}

function range(start: number, count: number): string {
  const from = count === 0 ? start - 1 : start
  return count === 1 ? `${from}` : `${from},${count}`
}

export function formatPatch(changes: readonly FileChange[], color: boolean, context = 3): string {
  const paint = color ? COLOUR : PLAIN
  let out = ''
  for (const change of changes) {
    const { path, old, new: now } = change
    const fromPath = change.from ?? path
    const head = [`diff --git a/${fromPath} b/${path}`]
    if (change.from !== undefined) {
      head.push('similarity index 100%', `rename from ${change.from}`, `rename to ${path}`)
      if (old!.mode !== now!.mode) head.push(`old mode ${old!.mode}`, `new mode ${now!.mode}`)
    } else if (!old) head.push(`new file mode ${now!.mode}`, `index ${ZERO}..${short(now!.oid)}`)
    else if (!now) head.push(`deleted file mode ${old.mode}`, `index ${short(old.oid)}..${ZERO}`)
    else if (old.mode !== now.mode) {
      head.push(`old mode ${old.mode}`, `new mode ${now.mode}`)
      if (old.oid !== now.oid) head.push(`index ${short(old.oid)}..${short(now.oid)}`)
    } else head.push(`index ${short(old.oid)}..${short(now.oid)} ${old.mode}`)
    out += head.map((line) => `${paint.meta(line)}\n`).join('')
    if (old && now && old.oid === now.oid) continue
    if (change.oldBytes.length === 0 && change.newBytes.length === 0) continue
    const from = old ? `a/${fromPath}` : '/dev/null'
    const to = now ? `b/${path}` : '/dev/null'
    if (isBinary(change.oldBytes) || isBinary(change.newBytes)) {
      out += `Binary files ${from} and ${to} differ\n`
      continue
    }
    out += `${paint.meta(`--- ${from}`)}\n${paint.meta(`+++ ${to}`)}\n`
    const oldText = text(change.oldBytes)
    const oldLines = oldText.split('\n')
    const patch = structuredPatch(from, to, oldText, text(change.newBytes), '', '', { context })
    for (const hunk of patch.hunks) {
      out += `${paint.frag(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`)}${paint.func(funcName(oldLines, hunk.oldStart - 2))}\n`
      for (const line of hunk.lines) {
        if (line.startsWith('-')) out += `${paint.removed(line)}\n`
        else if (line.startsWith('+')) out += `${paint.added(line)}\n`
        else out += `${paint.context(line)}\n`
      }
    }
  }
  return out
}

export function formatNameOnly(changes: readonly FileChange[]): string {
  return changes.map((c) => `${c.path}\n`).join('')
}

export function formatNameStatus(changes: readonly FileChange[]): string {
  return changes.map((c) => (c.from !== undefined ? `R100\t${c.from}\t${c.path}\n` : `${!c.old ? 'A' : !c.new ? 'D' : 'M'}\t${c.path}\n`)).join('')
}
