/** `git init [-q] [-b <branch>] [<directory>]`. */

import git from 'isomorphic-git'
import { parseArgs, has, value } from '../git-args'
import { ok, unsupported, type GitSubcommand } from '../git-context'
import { joinPath } from '../git-paths'
import { configValue } from '../repo-config'

/** The config native git writes on init (isomorphic-git's own says filemode/symlinks false, ignorecase true). */
const NATIVE_CONFIG = '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n'

export const init: GitSubcommand = {
  needsRepo: false,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-q': 'quiet', '--quiet': 'quiet' },
      values: { '-b': 'branch', '--initial-branch': 'branch' },
    })
    if (parsed.unknown) return unsupported(`git init ${parsed.unknown}`)
    const target = parsed.positional[0]
    const dir = target === undefined ? ctx.cwd : ctx.fs.resolvePath(ctx.cwd, target)
    await ctx.fs.mkdir(dir, { recursive: true })
    const gitdir = joinPath(dir, '.git')
    const existed = await ctx.fs.exists(joinPath(gitdir, 'HEAD'))
    const defaultBranch = value(parsed, 'branch') ?? (await configValue(ctx, 'init.defaultBranch')) ?? 'main'
    if (!existed) {
      await git.init({ fs: ctx.gitFs, dir, defaultBranch })
      await ctx.fs.writeFile(joinPath(gitdir, 'config'), NATIVE_CONFIG)
    }
    if (has(parsed, 'quiet')) return ok()
    return ok(`${existed ? 'Reinitialized existing' : 'Initialized empty'} Git repository in ${gitdir}/\n`)
  },
}
