/**
 * Bash worker side: whether an untracked path is ignored (.gitignore files, .git/info/exclude).
 * The rules are isomorphic-git's isIgnored, but each .gitignore is read and parsed once per
 * command instead of once per path: in a tree of thousands of untracked files that is the
 * difference between a few reads and tens of thousands.
 */

import ignore, { type Ignore } from 'ignore'
import type { GitContext } from './git-context'
import { joinPath } from './git-paths'
import { repo } from './repo-head'

/** Answers for one command: `(path, isDirectory)` → ignored. Paths are relative to the work tree. */
export type IgnoreCheck = (path: string, isDirectory: boolean) => Promise<boolean>

export function createIgnoreCheck(ctx: GitContext): IgnoreCheck {
  const { dir, gitdir } = repo(ctx)
  const texts = new Map<string, Promise<string>>()
  const read = (path: string) => {
    let text = texts.get(path)
    if (!text) texts.set(path, (text = ctx.fs.readFile(path).catch(() => '')))
    return text
  }
  const matchers = new Map<string, Promise<Ignore>>()
  /** The rules of the .gitignore in `folder` ('' is the top, which also takes info/exclude). */
  const matcher = (folder: string) => {
    let found = matchers.get(folder)
    if (!found) {
      found = (async () => {
        const rules = ignore()
        if (folder === '') rules.add(await read(joinPath(gitdir, 'info/exclude')))
        return rules.add(await read(joinPath(folder === '' ? dir : joinPath(dir, folder), '.gitignore')))
      })()
      matchers.set(folder, found)
    }
    return found
  }
  const dirs = new Map<string, Promise<boolean>>()
  /** Whether a directory is excluded: no path under it can come back, as gitignore(5) says. */
  const dirIgnored = (path: string): Promise<boolean> => {
    let found = dirs.get(path)
    if (!found) dirs.set(path, (found = check(path, true)))
    return found
  }
  const check = async (path: string, isDirectory: boolean): Promise<boolean> => {
    const pieces = path.split('/')
    if (pieces.at(-1) === '.git') return true
    for (let i = 1; i < pieces.length; i++) if (await dirIgnored(pieces.slice(0, i).join('/'))) return true
    let ignored = false
    for (let i = 0; i < pieces.length; i++) {
      const rules = await matcher(pieces.slice(0, i).join('/'))
      const rest = pieces.slice(i).join('/')
      const target = isDirectory ? `${rest}/` : rest
      // A path can come back (`!pattern`) only from a later, deeper rule.
      ignored = ignored ? !rules.test(target).unignored : rules.test(target).ignored
    }
    return ignored
  }
  return check
}
