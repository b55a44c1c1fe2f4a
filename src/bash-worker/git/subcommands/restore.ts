/**
 * `git restore [--source=<commit>] [--staged] [--worktree] [--] <path>...`: the work tree from
 * the index (default), the index from HEAD (--staged), or either from a commit.
 */

import { has, parseArgs, value } from '../git-args'
import { fail, fatal, ok, unsupported, type GitSubcommand } from '../git-context'
import { matchesPathspec, repoPathspecs } from '../repo-diff'
import { indexEntries, treeEntries, type Entries } from '../repo-entries'
import { headOid, resolveCommit } from '../repo-revisions'
import { setIndex, writeWorkFile } from '../repo-worktree'

export const restore: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-S': 'staged', '--staged': 'staged', '-W': 'worktree', '--worktree': 'worktree', '-q': 'quiet', '--quiet': 'quiet' },
      values: { '-s': 'source', '--source': 'source' },
    })
    if (parsed.unknown) return unsupported(`git restore ${parsed.unknown}`)
    const paths = [...parsed.positional, ...parsed.paths]
    if (paths.length === 0) return fatal('you must specify path(s) to restore')
    const specs = repoPathspecs(ctx, paths)
    if (specs === null) return fatal(`${paths[0]}: '${paths[0]}' is outside repository at '${ctx.dir}'`)
    const staged = has(parsed, 'staged')
    const worktree = has(parsed, 'worktree') || !staged
    const sourceName = value(parsed, 'source')
    let source: Entries
    if (sourceName !== undefined) {
      const oid = await resolveCommit(ctx, sourceName)
      if (oid === null) return fatal(`could not resolve ${sourceName}`)
      source = await treeEntries(ctx, oid)
    } else source = staged ? await treeEntries(ctx, await headOid(ctx)) : await indexEntries(ctx)
    const index = await indexEntries(ctx)
    for (const [i, spec] of specs.entries()) {
      const known = (p: string) => matchesPathspec(p, [spec])
      if (![...source.keys()].some(known) && ![...index.keys()].some(known)) return fail(`error: pathspec '${paths[i]}' did not match any file(s) known to git`)
    }
    if (staged) await setIndex(ctx, source, specs)
    if (worktree) {
      for (const [path, entry] of source) if (matchesPathspec(path, specs)) await writeWorkFile(ctx, path, entry)
      // A tracked file the source lacks is removed from the work tree, as git's restore does.
      for (const path of index.keys()) {
        if (matchesPathspec(path, specs) && !source.has(path)) await ctx.fs.rm(`${ctx.dir}/${path}`, { force: true })
      }
    }
    return ok()
  },
}
