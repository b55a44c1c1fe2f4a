/**
 * `git diff [--staged|--cached] [<commit> [<commit>]|<a>..<b>] [--stat|--name-only|--name-status]
 * [--] [<path>...]`: the work tree against the index, the index against a commit, the work
 * tree against a commit, or two commits, printed as git prints them.
 */

import { parseArgs, has, value } from '../git-args'
import { fatal, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { indexEntries, treeEntries, workdirEntries } from '../repo-entries'
import { unmergedPaths } from '../repo-index-file'
import { collectChanges, matchesPathspec, formatNameOnly, formatNameStatus, formatPatch, objectSide, repoPathspecs, workdirSide, type FileChange, type Side } from '../repo-diff'
import { formatNumstat, formatShortstat, formatStat } from '../repo-diff-stat'
import { headOid, resolveCommit } from '../repo-revisions'
import git from 'isomorphic-git'
import { repoArgs } from '../repo-revisions'

export const DIFF_FLAGS = {
  '--stat': 'stat',
  '--numstat': 'numstat',
  '--shortstat': 'shortstat',
  '--name-only': 'name-only',
  '--name-status': 'name-status',
  '--color': 'color',
  '--no-color': 'no-color',
  '--patch': 'patch',
  '-p': 'patch',
}

/** Diff options that take a value: the lines of context. */
export const DIFF_VALUES = { '-U': 'unified', '--unified': 'unified' }

/** Prints changes in the form the flags ask for (patch by default). */
export function printChanges(changes: readonly FileChange[], parsed: ReturnType<typeof parseArgs>, ctx: GitContext): string {
  const color = has(parsed, 'no-color') ? false : has(parsed, 'color') || ctx.color
  const context = Number(value(parsed, 'unified') ?? 3)
  const patch = () => formatPatch(changes, color, Number.isInteger(context) && context >= 0 ? context : 3)
  if (has(parsed, 'name-only')) return formatNameOnly(changes)
  if (has(parsed, 'name-status')) return formatNameStatus(changes)
  if (has(parsed, 'numstat')) return formatNumstat(changes)
  if (has(parsed, 'shortstat')) return formatShortstat(changes)
  if (has(parsed, 'stat')) return formatStat(changes, color) + (has(parsed, 'patch') ? `\n${patch()}` : '')
  return patch()
}

function isPatch(parsed: ReturnType<typeof parseArgs>): boolean {
  return !['name-only', 'name-status', 'stat', 'numstat', 'shortstat'].some((flag) => has(parsed, flag))
}

export function ambiguous(arg: string): GitOutput {
  return fatal(`ambiguous argument '${arg}': unknown revision or path not in the working tree.
Use '--' to separate paths from revisions, like this:
'git <command> [<revision>...] -- [<file>...]'`)
}

export const diff: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { ...DIFF_FLAGS, '--staged': 'cached', '--cached': 'cached', '--exit-code': 'exit-code', '--quiet': 'quiet' },
      values: DIFF_VALUES,
    })
    if (parsed.unknown) return unsupported(`git diff ${parsed.unknown}`)
    const revisions: string[] = []
    const named: string[] = []
    for (const arg of parsed.positional) {
      // Revisions come first; once a path is seen, the rest are paths too (as git reads them).
      if (named.length === 0) {
        const range = /^(.*?)(\.\.\.?)(.*)$/.exec(arg)
        if (range) {
          const from = await resolveCommit(ctx, range[1] || 'HEAD')
          const to = await resolveCommit(ctx, range[3] || 'HEAD')
          if (from === null || to === null) return ambiguous(arg)
          const base = range[2] === '...' ? (await git.findMergeBase({ ...repoArgs(ctx), oids: [from, to] }))[0] : from
          revisions.push(base ?? from, to)
          continue
        }
        const oid = revisions.length < 2 ? await resolveCommit(ctx, arg) : null
        if (oid !== null) {
          revisions.push(oid)
          continue
        }
      }
      if (parsed.paths.length === 0 && !(await ctx.fs.exists(ctx.fs.resolvePath(ctx.cwd, arg)))) return ambiguous(arg)
      named.push(arg)
    }
    const pathArgs = [...named, ...parsed.paths]
    const specs = repoPathspecs(ctx, pathArgs)
    if (specs === null) return fatal(`${pathArgs[0]}: '${pathArgs[0]}' is outside repository at '${ctx.dir}'`)
    const cached = has(parsed, 'cached')
    if (revisions.length > 2 || (cached && revisions.length > 1)) return unsupported('git diff with more than two commits')
    let a: Side
    let b: Side
    if (revisions.length === 2) {
      a = objectSide(ctx, await treeEntries(ctx, revisions[0]!))
      b = objectSide(ctx, await treeEntries(ctx, revisions[1]!))
    } else if (cached) {
      const base = revisions[0] ?? (await headOid(ctx))
      a = objectSide(ctx, await treeEntries(ctx, base))
      b = objectSide(ctx, await indexEntries(ctx))
    } else if (revisions.length === 1) {
      a = objectSide(ctx, await treeEntries(ctx, revisions[0]!))
      b = workdirSide(ctx, await workdirEntries(ctx))
    } else {
      a = objectSide(ctx, await indexEntries(ctx))
      b = workdirSide(ctx, await workdirEntries(ctx))
    }
    let changes = await collectChanges(a, b, specs)
    // Mid-merge, a conflicted path has no single index entry: git names it instead of diffing it.
    const unmerged = revisions.length === 2 ? [] : (await unmergedPaths(ctx)).filter((p) => matchesPathspec(p, specs))
    changes = changes.filter((c) => !unmerged.includes(c.path))
    const quiet = has(parsed, 'quiet')
    const code = (has(parsed, 'exit-code') || quiet) && changes.length + unmerged.length > 0 ? 1 : 0
    if (quiet) return { stdout: '', stderr: '', exitCode: code }
    if (unmerged.length === 0 || !isPatch(parsed)) return { stdout: printChanges(changes, parsed, ctx), stderr: '', exitCode: code }
    const parts = [...changes.map((c) => ({ path: c.path, text: printChanges([c], parsed, ctx) })), ...unmerged.map((path) => ({ path, text: `* Unmerged path ${path}\n` }))]
    parts.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))
    return { stdout: parts.map((part) => part.text).join(''), stderr: '', exitCode: code }
  },
}
