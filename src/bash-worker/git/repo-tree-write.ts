/**
 * Bash worker side: writes a flat path → blob map as git tree objects (one per directory) and
 * makes commits from them, for stash's commits, which are built from the index and work tree
 * rather than by isomorphic-git's commit.
 */

import git, { type TreeEntry } from 'isomorphic-git'
import type { GitContext } from './git-context'
import type { Entries } from './repo-entries'
import type { Person as Identity } from './repo-identity'
import { repoArgs } from './repo-revisions'

/** Writes the trees for `entries` and returns the top tree's id. */
export async function writeTreeFromEntries(ctx: GitContext, entries: Entries): Promise<string> {
  const children = new Map<string, Entries>()
  const tree: TreeEntry[] = []
  for (const [path, entry] of entries) {
    const slash = path.indexOf('/')
    if (slash === -1) {
      tree.push({ path, oid: entry.oid, mode: entry.mode, type: entry.mode === '160000' ? 'commit' : 'blob' })
      continue
    }
    const dir = path.slice(0, slash)
    if (!children.has(dir)) children.set(dir, new Map())
    children.get(dir)!.set(path.slice(slash + 1), entry)
  }
  for (const [dir, sub] of children) tree.push({ path: dir, oid: await writeTreeFromEntries(ctx, sub), mode: '040000', type: 'tree' })
  return git.writeTree({ ...repoArgs(ctx), tree })
}

function signature(who: Identity): string {
  const east = -who.timezoneOffset
  const abs = Math.abs(east)
  const zone = `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
  return `${who.name} <${who.email}> ${who.timestamp} ${zone}`
}

/**
 * Writes a commit object (no ref moves) and returns its id. The message is written exactly as
 * given: isomorphic-git's writeCommit always ends it with a newline, and git's stash commit has none.
 */
export async function writeCommitObject(ctx: GitContext, c: { tree: string; parents: string[]; message: string; author: Identity; committer: Identity }): Promise<string> {
  const head = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${signature(c.author)}`, `committer ${signature(c.committer)}`]
  const object = new TextEncoder().encode(`${head.join('\n')}\n\n${c.message}`)
  return git.writeObject({ ...repoArgs(ctx), type: 'commit', object, format: 'content' })
}
