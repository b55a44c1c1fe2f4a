/**
 * `git checkout <branch>`, `-b|-B <new> [<start>]`, `<commit>` (detached HEAD), `--detach`,
 * and `[<commit>] [--] <path>...` to restore files from the index or a commit.
 */

import git from 'isomorphic-git'
import { has, parseArgs, value } from '../git-args'
import { fail, fatal, ok, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { matchesPathspec, repoPathspecs } from '../repo-diff'
import { indexEntries, treeEntries, type Entries } from '../repo-entries'
import { repoArgs, resolveCommit } from '../repo-revisions'
import { branchExists, previousTarget, switchTo, validBranchName } from '../repo-switch'
import { setIndex, writeWorkFile } from '../repo-worktree'

export const checkout: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const dashDash = args.includes('--')
    const parsed = parseArgs(args, {
      booleans: { '--detach': 'detach', '-f': 'force', '--force': 'force', '-q': 'quiet', '--quiet': 'quiet' },
      values: { '-b': 'create', '-B': 'force-create' },
    })
    if (parsed.unknown) return unsupported(`git checkout ${parsed.unknown}`)
    const force = has(parsed, 'force')
    const quietly = (out: GitOutput) => (has(parsed, 'quiet') && out.exitCode === 0 ? { ...out, stderr: '' } : out)
    const newName = value(parsed, 'create') ?? value(parsed, 'force-create')
    const [first, ...rest] = parsed.positional
    if (newName !== undefined) {
      if (!validBranchName(newName)) return fatal(`'${newName}' is not a valid branch name`)
      if (has(parsed, 'create') && (await branchExists(ctx, newName))) return fatal(`a branch named '${newName}' already exists`)
      const start = first === undefined ? null : await resolveCommit(ctx, first)
      if (first !== undefined && start === null) return fatal(`'${first}' is not a commit and a branch '${newName}' cannot be created from it`)
      return quietly(await switchTo(ctx, { kind: 'branch', name: newName, create: true, reset: has(parsed, 'force-create'), start }, force))
    }
    if (first === undefined && !dashDash) return ok()
    if (first === '-' && !dashDash && rest.length === 0) {
      const previous = await previousTarget(ctx)
      if (previous === null) return fail("error: pathspec '-' did not match any file(s) known to git")
      return quietly(await switchTo(ctx, previous, force))
    }
    if (!dashDash && rest.length === 0 && first !== undefined) {
      if (!has(parsed, 'detach') && (await branchExists(ctx, first))) return quietly(await switchTo(ctx, { kind: 'branch', name: first, create: false }, force))
      const oid = await resolveCommit(ctx, first)
      if (oid !== null) return quietly(await switchTo(ctx, { kind: 'detach', oid, label: first, advice: !has(parsed, 'detach') }, force))
    }
    // Paths: `checkout [<commit>] [--] <path>...`.
    let source: string | null = null
    let paths = [...parsed.positional, ...parsed.paths]
    if (first !== undefined && (dashDash || rest.length > 0)) {
      const oid = dashDash && parsed.positional.length === 0 ? null : await resolveCommit(ctx, first)
      if (oid !== null) {
        source = oid
        paths = [...rest, ...parsed.paths]
      } else if (dashDash && parsed.positional.length > 0) return fatal(`invalid reference: ${first}`)
    }
    return quietly(await checkoutPaths(ctx, source, paths, !dashDash))
  },
}

/** Restores paths in the work tree from the index, or in both from a commit. */
async function checkoutPaths(ctx: GitContext, source: string | null, paths: string[], count: boolean): Promise<GitOutput> {
  const specs = repoPathspecs(ctx, paths)
  if (specs === null || paths.length === 0) return fatal('you must specify path(s) to restore')
  const from: Entries = source === null ? await indexEntries(ctx) : await treeEntries(ctx, source)
  for (const [i, spec] of specs.entries()) {
    if (![...from.keys()].some((p) => matchesPathspec(p, [spec]))) return fail(`error: pathspec '${paths[i]}' did not match any file(s) known to git`)
  }
  const chosen = [...from.entries()].filter(([p]) => matchesPathspec(p, specs))
  if (source !== null) {
    // Overlay: the commit's files go into the index; files it lacks stay as they are.
    const index = await indexEntries(ctx)
    for (const [path, entry] of chosen) index.set(path, entry)
    await setIndex(ctx, index, specs)
  }
  for (const [path, entry] of chosen) await writeWorkFile(ctx, path, entry)
  if (!count) return ok()
  const n = chosen.length
  return ok('', `Updated ${n} path${n === 1 ? '' : 's'} from ${source === null ? 'the index' : (await treeOf(ctx, source)).slice(0, 7)}\n`)
}

async function treeOf(ctx: GitContext, commit: string): Promise<string> {
  return (await git.readCommit({ ...repoArgs(ctx), oid: commit })).commit.tree
}
