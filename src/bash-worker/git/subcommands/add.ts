/** `git add [-A | --all | -u | --update] [-v] [--] [<path>...]`: stages new, changed and removed files. */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, fatal, ok, unsupported, type GitContext, type GitSubcommand } from '../git-context'
import { displayPath, repo, repoPath, underPath } from '../repo-head'
import { createIgnoreCheck } from '../repo-ignore'
import { fileStates, type FileState } from '../repo-status'

/**
 * Brings the index in line with the work tree for `states` under `specs` ('' is everything):
 * changed and new files are added, removed ones taken out. With `trackedOnly`, new files stay
 * untracked (`-u`, `commit -a`). Unchanged files are left alone, so nothing unchanged is read.
 */
export async function stageStates(
  ctx: GitContext,
  states: FileState[],
  specs: string[],
  trackedOnly: boolean,
  cache: object,
): Promise<{ added: string[]; removed: string[] }> {
  const r = repo(ctx)
  const toAdd: string[] = []
  const toRemove: string[] = []
  for (const s of states) {
    if (!specs.some((spec) => underPath(s.path, spec))) continue
    if (s.workdir === undefined) {
      if (s.stage !== undefined) toRemove.push(s.path)
    } else if (s.stage === undefined ? !trackedOnly && !s.ignored : s.workdir !== s.stage) toAdd.push(s.path)
  }
  // force: the states leave ignored paths out already; isomorphic-git would check each again.
  if (toAdd.length > 0) await git.add({ ...r, filepath: toAdd, cache, force: true })
  for (const filepath of toRemove) await git.remove({ ...r, filepath, cache })
  return { added: toAdd, removed: toRemove }
}

export const add: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: {
        '-A': 'all', '--all': 'all', '-u': 'update', '--update': 'update', '-q': 'quiet', '--quiet': 'quiet', '-v': 'verbose', '--verbose': 'verbose',
      },
    })
    if (parsed.unknown) return unsupported(`git add ${parsed.unknown}`)
    const paths = [...parsed.positional, ...parsed.paths]
    const whole = has(parsed, 'all') || has(parsed, 'update')
    if (paths.length === 0 && !whole) {
      return {
        stdout: '',
        stderr: 'Nothing specified, nothing added.\nhint: Maybe you wanted to say \'git add .\'?\nhint: Turn this message off by running\nhint: "git config advice.addEmptyPathspec false"\n',
        exitCode: 0,
      }
    }
    const specs: string[] = []
    for (const path of paths) {
      const spec = repoPath(ctx, path)
      if (spec === null) return fatal(`${path}: '${path}' is outside repository at '${ctx.dir}'`)
      specs.push(spec)
    }
    if (specs.length === 0) specs.push('')
    const cache = {}
    const states = await fileStates(ctx, cache)
    const ignored: string[] = []
    const isIgnored = createIgnoreCheck(ctx)
    for (const [i, spec] of specs.entries()) {
      if (states.some((s) => underPath(s.path, spec))) continue
      const exists = await ctx.fs.exists(ctx.fs.resolvePath(ctx.cwd, paths[i]!))
      if (!exists) return fatal(`pathspec '${paths[i]}' did not match any files`)
      // git names the ignored directory a path is in, when it is in one.
      const pieces = spec.split('/')
      let shown = paths[i]!
      for (let depth = 1; depth < pieces.length; depth++) {
        if (await isIgnored(pieces.slice(0, depth).join('/'), true)) {
          shown = displayPath(ctx, pieces.slice(0, depth).join('/'))
          break
        }
      }
      ignored.push(shown)
    }
    if (ignored.length > 0) {
      return fail(
        `The following paths are ignored by one of your .gitignore files:\n${ignored.join('\n')}\n` +
          'hint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: "git config advice.addIgnoredFile false"',
      )
    }
    const staged = await stageStates(ctx, states, specs, has(parsed, 'update'), cache)
    if (!has(parsed, 'verbose')) return ok()
    const lines = [...staged.added.map((p) => [p, `add '${p}'`]), ...staged.removed.map((p) => [p, `remove '${p}'`])]
    return ok(lines.sort(([a], [b]) => (a! < b! ? -1 : 1)).map(([, line]) => `${line}\n`).join(''))
  },
}
