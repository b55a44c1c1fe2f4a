/**
 * Bash worker side: the three-way look at HEAD, the index and the work tree that `status`,
 * `commit` and `add -u` share. It is isomorphic-git's statusMatrix walk, kept here because the
 * callers also need the blob ids (exact renames) and untracked directories collapsed as git
 * shows them. A file whose stat matches the index is never read: WORKDIR's oid() takes the
 * index's id then, so a status after one change in thousands of files hashes one file.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import { repo } from './repo-head'
import { createIgnoreCheck } from './repo-ignore'

/**
 * One path's ids in HEAD, the work tree and the index (undefined: absent there). `ignored`:
 * a file in HEAD but not in the index that .gitignore now matches (a staged deletion that
 * `add` must not undo, and that status does not list as untracked).
 */
export type FileState = { path: string; head?: string; workdir?: string; stage?: string; ignored?: boolean }

/** What `status` shows: index vs HEAD, work tree vs index, and untracked paths. */
export type StatusLists = {
  staged: Array<{ kind: 'new file' | 'modified' | 'deleted' | 'renamed'; path: string; from?: string }>
  unstaged: Array<{ kind: 'modified' | 'deleted'; path: string }>
  /** Untracked files, and directories holding no tracked file as `dir/`. */
  untracked: string[]
  /** Paths with conflict stages (a merge in progress), with git's label and short code. */
  unmerged: Array<{ path: string; label: string; code: string }>
}

/** Stands for an untracked file's id: what it is does not matter, so it is never hashed. */
const UNTRACKED = 'untracked'

/** Every path in HEAD, the index or the work tree (ignored untracked paths left out). */
export async function fileStates(ctx: GitContext, cache: object = {}): Promise<FileState[]> {
  const r = repo(ctx)
  const ignored = createIgnoreCheck(ctx)
  const rows: FileState[] = await git.walk({
    ...r,
    cache,
    trees: [git.TREE({ ref: 'HEAD' }), git.WORKDIR(), git.STAGE()],
    map: async (path, [head, workdir, stage]) => {
      if (path === '.') return undefined
      const [headType, workType, stageType] = await Promise.all([head?.type(), workdir?.type(), stage?.type()])
      // An ignored untracked path is left out, and an ignored directory is not walked into.
      const isIgnored = !stage && workdir ? await ignored(path, workType === 'tree') : false
      if (isIgnored && !head) return null
      if (headType === 'commit' || stageType === 'commit') return null // a submodule: not shown
      const blob = (type: string | undefined) => type === 'blob'
      if (![headType, workType, stageType].some(blob)) return undefined // a directory: walk on
      const state: FileState = isIgnored ? { path, ignored: true } : { path }
      if (blob(headType)) state.head = await head!.oid()
      if (blob(stageType)) state.stage = await stage!.oid()
      if (blob(workType)) state.workdir = state.head === undefined && state.stage === undefined ? UNTRACKED : await workdir!.oid()
      return state
    },
  })
  return rows
}

/** Pairs a deleted and an added path with the same content as a rename, as git's status does. */
function withRenames(staged: StatusLists['staged'], states: Map<string, FileState>): StatusLists['staged'] {
  const deleted = staged.filter((s) => s.kind === 'deleted')
  const out: StatusLists['staged'] = []
  for (const change of staged) {
    if (change.kind !== 'new file') {
      out.push(change)
      continue
    }
    const oid = states.get(change.path)?.stage
    const index = deleted.findIndex((d) => states.get(d.path)?.head === oid)
    if (index === -1) out.push(change)
    else {
      const [from] = deleted.splice(index, 1)
      out.push({ kind: 'renamed', path: change.path, from: from!.path })
    }
  }
  const renamedFrom = new Set(out.filter((s) => s.kind === 'renamed').map((s) => s.from))
  return out.filter((s) => !(s.kind === 'deleted' && renamedFrom.has(s.path))).sort((a, b) => compare(a.path, b.path))
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * The status lists from `states`. Untracked files are shown as git's `-unormal` does (a
 * directory holding no tracked file stands for all in it), each one (`all`), or not at all.
 */
export function statusLists(states: FileState[], untrackedMode: 'normal' | 'all' | 'no' = 'normal'): StatusLists {
  const staged: StatusLists['staged'] = []
  const unstaged: StatusLists['unstaged'] = []
  const untrackedFiles: string[] = []
  const trackedDirs = new Set<string>([''])
  for (const s of states) {
    if (s.head !== undefined || s.stage !== undefined) {
      for (let i = s.path.indexOf('/'); i !== -1; i = s.path.indexOf('/', i + 1)) trackedDirs.add(s.path.slice(0, i))
    }
    if (s.head !== s.stage) {
      staged.push({ kind: s.head === undefined ? 'new file' : s.stage === undefined ? 'deleted' : 'modified', path: s.path })
    }
    if (s.stage !== undefined && s.workdir !== s.stage) unstaged.push({ kind: s.workdir === undefined ? 'deleted' : 'modified', path: s.path })
    if (s.stage === undefined && s.workdir !== undefined && !s.ignored && untrackedMode !== 'no') untrackedFiles.push(s.path)
  }
  const untracked = new Set<string>()
  for (const path of untrackedFiles) {
    // The shallowest directory above the file that holds no tracked file stands for it.
    let shown = path
    for (let i = path.indexOf('/'); i !== -1 && untrackedMode === 'normal'; i = path.indexOf('/', i + 1)) {
      if (!trackedDirs.has(path.slice(0, i))) {
        shown = `${path.slice(0, i)}/`
        break
      }
    }
    untracked.add(shown)
  }
  const byPath = new Map(states.map((s) => [s.path, s]))
  return { staged: withRenames(staged, byPath), unstaged, untracked: [...untracked].sort(compare), unmerged: [] }
}
