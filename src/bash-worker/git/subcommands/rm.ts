/**
 * `git rm [-r] [--cached] [-f] [-q] [--] <path>...`: takes files out of the index (and, without
 * --cached, the work tree), refusing as git does when that would lose changes.
 */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, fatal, ok, unsupported, type GitSubcommand } from '../git-context'
import { joinPath } from '../git-paths'
import { repo, repoPath, underPath } from '../repo-head'
import { fileStates, type FileState } from '../repo-status'

function refusal(what: string, paths: string[], hint: string): string {
  const many = paths.length > 1
  const head = what === 'staged'
    ? `the following file${many ? 's have' : ' has'} staged content different from both the\nfile and the HEAD:`
    : `the following file${many ? 's have' : ' has'} ${what}:`
  return `error: ${head}\n${paths.map((p) => `    ${p}`).join('\n')}\n${hint}`
}

export const rm: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-r': 'recursive', '--cached': 'cached', '-f': 'force', '--force': 'force', '-q': 'quiet', '--quiet': 'quiet' },
    })
    if (parsed.unknown) return unsupported(`git rm ${parsed.unknown}`)
    const paths = [...parsed.positional, ...parsed.paths]
    if (paths.length === 0) return fail('usage: git rm [<options>] [--] <file>...', 129)
    const r = repo(ctx)
    const cache = {}
    const tracked = (await fileStates(ctx, cache)).filter((s) => s.stage !== undefined)
    const chosen = new Map<string, FileState>()
    for (const path of paths) {
      const spec = repoPath(ctx, path)
      if (spec === null) return fatal(`${path}: '${path}' is outside repository at '${ctx.dir}'`)
      const matches = tracked.filter((s) => underPath(s.path, spec))
      if (matches.length === 0) return fatal(`pathspec '${path}' did not match any files`)
      if (!has(parsed, 'recursive') && !matches.some((s) => s.path === spec)) return fatal(`not removing '${path}' recursively without -r`)
      for (const s of matches) chosen.set(s.path, s)
    }
    const files = [...chosen.values()].sort((a, b) => (a.path < b.path ? -1 : 1))
    if (!has(parsed, 'force')) {
      const both = files.filter((s) => s.stage !== s.head && s.workdir !== undefined && s.workdir !== s.stage).map((s) => s.path)
      if (both.length > 0) return fail(refusal('staged', both, '(use -f to force removal)'))
      if (!has(parsed, 'cached')) {
        const staged = files.filter((s) => s.stage !== s.head).map((s) => s.path)
        if (staged.length > 0) return fail(refusal('changes staged in the index', staged, '(use --cached to keep the file, or -f to force removal)'))
        const local = files.filter((s) => s.workdir !== undefined && s.workdir !== s.stage).map((s) => s.path)
        if (local.length > 0) return fail(refusal('local modifications', local, '(use --cached to keep the file, or -f to force removal)'))
      }
    }
    for (const s of files) {
      await git.remove({ ...r, filepath: s.path, cache })
      if (!has(parsed, 'cached') && s.workdir !== undefined) await ctx.fs.rm(joinPath(r.dir, s.path))
    }
    if (!has(parsed, 'cached')) await removeEmptyParents(ctx, r.dir, files.map((s) => s.path))
    return ok(has(parsed, 'quiet') ? '' : files.map((s) => `rm '${s.path}'\n`).join(''))
  },
}

/** Directories left empty by the removal go too, as git removes them (never the one it runs in). */
async function removeEmptyParents(ctx: Parameters<GitSubcommand['run']>[1], dir: string, paths: string[]): Promise<void> {
  const parents = new Set<string>()
  for (const path of paths) for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) parents.add(path.slice(0, i))
  for (const parent of [...parents].sort((a, b) => b.length - a.length)) {
    const absolute = joinPath(dir, parent)
    if (ctx.cwd === absolute || ctx.cwd.startsWith(`${absolute}/`)) continue
    const names = await ctx.fs.readdir(absolute).catch(() => null)
    if (names !== null && names.length === 0) await ctx.fs.rm(absolute).catch(() => undefined)
  }
}
