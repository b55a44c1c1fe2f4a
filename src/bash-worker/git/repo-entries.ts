/**
 * Bash worker side: the three places a file can be in (a commit's tree, the index, the work
 * tree) as flat maps from path to blob id and mode, so diff, checkout, reset, stash and merge
 * compare them with plain map lookups.
 */

import git, { STAGE, TREE, WORKDIR, type WalkerEntry } from 'isomorphic-git'
import type { GitContext } from './git-context'
import { repoArgs } from './repo-revisions'

export type Entry = { oid: string; mode: string }
export type Entries = Map<string, Entry>

function modeString(mode: number): string {
  return mode.toString(8).padStart(6, '0')
}

/** Every blob in a commit's (or tree's) tree; an empty map for null. */
export async function treeEntries(ctx: GitContext, commitOrTree: string | null): Promise<Entries> {
  const entries: Entries = new Map()
  if (commitOrTree === null) return entries
  await git.walk({
    ...repoArgs(ctx),
    trees: [TREE({ ref: commitOrTree })],
    map: async (path, [entry]) => {
      if (!entry || path === '.') return undefined
      if ((await entry.type()) === 'blob') entries.set(path, { oid: await entry.oid(), mode: modeString(await entry.mode()) })
      return undefined
    },
  })
  return entries
}

/** The index (stage 0 entries as isomorphic-git reads them). */
export async function indexEntries(ctx: GitContext): Promise<Entries> {
  const entries: Entries = new Map()
  await git.walk({
    ...repoArgs(ctx),
    trees: [STAGE()],
    map: async (path, [entry]) => {
      if (!entry || path === '.') return undefined
      if ((await entry.type()) === 'blob') entries.set(path, { oid: await entry.oid(), mode: modeString(await entry.mode()) })
      return undefined
    },
  })
  return entries
}

/**
 * The work tree's version of each path the index tracks (untracked files are not git's to
 * diff); a tracked path missing from disk is missing from the map.
 */
export async function workdirEntries(ctx: GitContext): Promise<Entries> {
  const entries: Entries = new Map()
  await git.walk({
    ...repoArgs(ctx),
    trees: [STAGE(), WORKDIR()],
    map: async (path, [stage, work]: Array<WalkerEntry | null>) => {
      if (path === '.') return undefined
      if (!stage) return null // untracked: not walked further
      if (!work) return undefined
      const type = await work.type()
      if (type === 'blob' && (await stage.type()) === 'blob') entries.set(path, { oid: await work.oid(), mode: modeString(await work.mode()) })
      return undefined
    },
  })
  return entries
}

/** A blob's bytes. */
export async function blobBytes(ctx: GitContext, oid: string): Promise<Uint8Array> {
  return (await git.readBlob({ ...repoArgs(ctx), oid })).blob
}

/** Whether two entries hold the same content and mode (absent equals absent). */
export function sameEntry(a: Entry | undefined, b: Entry | undefined): boolean {
  return a?.oid === b?.oid && a?.mode === b?.mode
}
