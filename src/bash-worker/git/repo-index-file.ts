/**
 * Bash worker side: reads and writes git's index file (versions 2 and 3) in one pass, so a
 * switch or reset that touches a thousand files writes the index once instead of once per
 * file (isomorphic-git's updateIndex rewrites the whole index on every call).
 */

import type { GitContext } from './git-context'
import type { Entry } from './repo-entries'

export type IndexRecord = {
  path: string
  ctimeS: number
  ctimeNs: number
  mtimeS: number
  mtimeNs: number
  dev: number
  ino: number
  mode: number
  uid: number
  gid: number
  size: number
  oid: string
  stage: number
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** The index's records in file order; [] when there is none; null for a format this does not write (v4, split). */
export async function readIndexFile(ctx: GitContext): Promise<IndexRecord[] | null> {
  const bytes = await ctx.fs.readFileBuffer(`${ctx.gitdir}/index`).catch(() => null)
  if (bytes === null) return []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length < 12 || view.getUint32(0) !== 0x44495243) return null
  const version = view.getUint32(4)
  if (version !== 2 && version !== 3) return null
  const records: IndexRecord[] = []
  let at = 12
  for (let n = view.getUint32(8); n > 0; n--) {
    const u32 = (k: number) => view.getUint32(at + k * 4)
    const flags = view.getUint16(at + 60)
    const nameAt = at + 62 + (version === 3 && (flags & 0x4000) !== 0 ? 2 : 0)
    let end = nameAt
    while (bytes[end] !== 0) end++
    records.push({
      path: new TextDecoder().decode(bytes.subarray(nameAt, end)),
      ctimeS: u32(0), ctimeNs: u32(1), mtimeS: u32(2), mtimeNs: u32(3), dev: u32(4), ino: u32(5), mode: u32(6), uid: u32(7), gid: u32(8), size: u32(9),
      oid: hex(bytes.subarray(at + 40, at + 60)),
      stage: (flags >> 12) & 3,
    })
    at += Math.ceil((end - at + 1) / 8) * 8
  }
  return records
}

/** Writes `records` as a version 2 index (sorted, checksummed); extensions are not kept. */
export async function writeIndexFile(ctx: GitContext, records: IndexRecord[]): Promise<void> {
  const sorted = [...records].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.stage - b.stage))
  const names = sorted.map((r) => new TextEncoder().encode(r.path))
  const size = 12 + names.reduce((sum, name) => sum + Math.ceil((62 + name.length + 1) / 8) * 8, 0)
  const out = new Uint8Array(size + 20)
  const view = new DataView(out.buffer)
  view.setUint32(0, 0x44495243)
  view.setUint32(4, 2)
  view.setUint32(8, sorted.length)
  let at = 12
  sorted.forEach((r, i) => {
    const fields = [r.ctimeS, r.ctimeNs, r.mtimeS, r.mtimeNs, r.dev, r.ino, r.mode, r.uid, r.gid, r.size]
    fields.forEach((value, k) => view.setUint32(at + k * 4, value >>> 0))
    for (let b = 0; b < 20; b++) out[at + 40 + b] = parseInt(r.oid.slice(b * 2, b * 2 + 2), 16)
    const name = names[i]!
    view.setUint16(at + 60, Math.min(name.length, 0xfff) | (r.stage << 12))
    out.set(name, at + 62)
    at += Math.ceil((62 + name.length + 1) / 8) * 8
  })
  out.set(new Uint8Array(await crypto.subtle.digest('SHA-1', out.subarray(0, size))), size)
  await ctx.fs.writeFile(`${ctx.gitdir}/index`, out)
}

/** A record for `entry` whose stat fields match the file on disk (so it is not hashed again). */
export async function recordFromDisk(ctx: GitContext, path: string, entry: Entry): Promise<IndexRecord> {
  const stat = await ctx.fs.lstat(`${ctx.dir === '/' ? '' : ctx.dir}/${path}`)
  const ms = stat.mtime.getTime()
  const s = Math.floor(ms / 1000)
  const ns = Math.floor((ms - s * 1000) * 1000000)
  return { path, ctimeS: s, ctimeNs: ns, mtimeS: s, mtimeNs: ns, dev: 0, ino: 0, mode: parseInt(entry.mode, 8), uid: 0, gid: 0, size: stat.size, oid: entry.oid, stage: 0 }
}

/** A record with zero stats: git and isomorphic-git hash the file to compare it. */
export function recordWithoutStat(path: string, entry: Entry): IndexRecord {
  return { path, ctimeS: 0, ctimeNs: 0, mtimeS: 0, mtimeNs: 0, dev: 0, ino: 0, mode: parseInt(entry.mode, 8), uid: 0, gid: 0, size: 0, oid: entry.oid, stage: 0 }
}

/** Paths the index holds at a conflict stage (1-3), after a merge stopped on conflicts. */
export async function unmergedPaths(ctx: GitContext): Promise<string[]> {
  const records = (await readIndexFile(ctx)) ?? []
  return [...new Set(records.filter((r) => r.stage > 0).map((r) => r.path))].sort()
}
