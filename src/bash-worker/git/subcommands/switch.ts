/** `git switch [-c|-C <new>] [<branch>|<start>]`, `git switch --detach <commit>`. */

import { has, parseArgs, value } from '../git-args'
import { fail, fatal, unsupported, type GitSubcommand } from '../git-context'
import { resolveCommit } from '../repo-revisions'
import { mergeInProgress } from '../repo-merge-state'
import { branchExists, previousTarget, switchTo, validBranchName } from '../repo-switch'

export const switchCommand: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-d': 'detach', '--detach': 'detach', '-f': 'force', '--force': 'force', '--discard-changes': 'force', '-q': 'quiet', '--quiet': 'quiet' },
      values: { '-c': 'create', '--create': 'create', '-C': 'force-create', '--force-create': 'force-create' },
    })
    if (parsed.unknown) return unsupported(`git switch ${parsed.unknown}`)
    if (parsed.positional.length > 1 || parsed.paths.length > 0) return fatal(`only one reference expected, ${parsed.positional.length + parsed.paths.length} given.`)
    if (await mergeInProgress(ctx)) return fail('fatal: cannot switch branch while merging\nConsider "git merge --quit" or "git worktree add".', 128)
    const force = has(parsed, 'force')
    const quiet = (out: Awaited<ReturnType<typeof switchTo>>) => (has(parsed, 'quiet') ? { ...out, stderr: out.exitCode === 0 ? '' : out.stderr } : out)
    const newName = value(parsed, 'create') ?? value(parsed, 'force-create')
    const arg = parsed.positional[0]
    if (arg === '-' && newName === undefined) {
      const previous = await previousTarget(ctx)
      if (previous === null) return fatal('invalid reference: @{-1}')
      return quiet(await switchTo(ctx, previous.kind === 'detach' ? { ...previous, advice: false } : previous, force))
    }
    if (newName !== undefined) {
      if (!validBranchName(newName)) return fatal(`'${newName}' is not a valid branch name`)
      if (has(parsed, 'create') && (await branchExists(ctx, newName))) return fatal(`a branch named '${newName}' already exists`)
      const start = arg === undefined ? null : await resolveCommit(ctx, arg)
      if (arg !== undefined && start === null) return fatal(`invalid reference: ${arg}`)
      return quiet(await switchTo(ctx, { kind: 'branch', name: newName, create: true, reset: has(parsed, 'force-create'), start }, force))
    }
    if (arg === undefined) return fatal('missing branch or commit argument')
    if (has(parsed, 'detach')) {
      const oid = await resolveCommit(ctx, arg)
      if (oid === null) return fatal(`invalid reference: ${arg}`)
      return quiet(await switchTo(ctx, { kind: 'detach', oid, label: arg, advice: false }, force))
    }
    if (await branchExists(ctx, arg)) return quiet(await switchTo(ctx, { kind: 'branch', name: arg, create: false }, force))
    if ((await resolveCommit(ctx, arg)) !== null) {
      return fail(`fatal: a branch is expected, got commit '${arg}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.`, 128)
    }
    return fatal(`invalid reference: ${arg}`)
  },
}
