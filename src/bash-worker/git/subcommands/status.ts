/** `git status [-s | --short | --porcelain] [-b] [--long] [-u<mode>] [<path>...]`, in git's words and order. */

import { parseArgs, has, value } from '../git-args'
import { fatal, ok, unsupported, type GitContext, type GitSubcommand } from '../git-context'
import { currentBranch, displayPath, headOid, quotePath, repoPath, shortOid, underPath } from '../repo-head'
import { conflictKind, mergeHead, unmergedPaths } from '../repo-unmerged'
import { fileStates, statusLists, type StatusLists } from '../repo-status'

const GREEN = '\x1b[32m'
const RED = '\x1b[31m'
const RESET = '\x1b[m'

/** The lists for the paths asked about (all when none). Throws git's fatal for a path outside. */
export async function statusFor(ctx: GitContext, paths: string[] = [], untracked: 'normal' | 'all' | 'no' = 'normal'): Promise<StatusLists> {
  const specs = paths.map((path) => {
    const spec = repoPath(ctx, path)
    if (spec === null) throw new Error(`${path}: '${path}' is outside repository at '${ctx.dir}'`)
    return spec
  })
  const all = statusLists(await fileStates(ctx), untracked)
  // A path in conflict is shown as that only, not as staged or changed.
  const conflicts = await unmergedPaths(ctx)
  const lists: StatusLists = {
    staged: all.staged.filter((s) => !conflicts.has(s.path)),
    unstaged: all.unstaged.filter((s) => !conflicts.has(s.path)),
    untracked: all.untracked,
    unmerged: [...conflicts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, stages]) => ({ path, ...conflictKind(stages) })),
  }
  if (specs.length === 0) return lists
  const wanted = (path: string) => specs.some((spec) => underPath(path.replace(/\/$/, ''), spec) || underPath(spec, path.replace(/\/$/, '')))
  return {
    staged: lists.staged.filter((s) => wanted(s.path) || (s.from !== undefined && wanted(s.from))),
    unstaged: lists.unstaged.filter((s) => wanted(s.path)),
    untracked: lists.untracked.filter(wanted),
    unmerged: lists.unmerged.filter((s) => wanted(s.path)),
  }
}

/** The long form, as `git status` and (`forCommit`) a `git commit` with nothing to commit print it. */
export async function longStatus(ctx: GitContext, lists: StatusLists, forCommit = false, untrackedShown = true): Promise<string> {
  const paint = (color: string, text: string) => (ctx.color ? `${color}${text}${RESET}` : text)
  const branch = await currentBranch(ctx)
  const head = await headOid(ctx)
  const lines = [branch === null ? `HEAD detached at ${shortOid(head ?? '')}` : `On branch ${branch}`]
  if (head === null) lines.push('', forCommit ? 'Initial commit' : 'No commits yet', '')
  const merging = (await mergeHead(ctx)) !== null
  if (merging && lists.unmerged.length > 0) {
    lines.push('You have unmerged paths.', '  (fix conflicts and run "git commit")', '  (use "git merge --abort" to abort the merge)', '')
  } else if (merging) lines.push('All conflicts fixed but you are still merging.', '  (use "git commit" to conclude merge)', '')
  const entry = (label: string, text: string, color: string) => `\t${paint(color, `${label.padEnd(12)}${text}`)}`
  if (lists.staged.length > 0) {
    lines.push('Changes to be committed:')
    // During a merge git gives no hint here.
    if (!merging) lines.push(head === null ? '  (use "git rm --cached <file>..." to unstage)' : '  (use "git restore --staged <file>..." to unstage)')
    for (const s of lists.staged) {
      const show = (path: string) => quotePath(displayPath(ctx, path))
      const text = s.from === undefined ? show(s.path) : `${show(s.from)} -> ${show(s.path)}`
      lines.push(entry(`${s.kind}:`, text, GREEN))
    }
    lines.push('')
  }
  if (lists.unstaged.length > 0) {
    lines.push('Changes not staged for commit:')
    const rm = lists.unstaged.some((s) => s.kind === 'deleted')
    lines.push(`  (use "git ${rm ? 'add/rm' : 'add'} <file>..." to update what will be committed)`)
    lines.push('  (use "git restore <file>..." to discard changes in working directory)')
    for (const s of lists.unstaged) lines.push(entry(`${s.kind}:`, quotePath(displayPath(ctx, s.path)), RED))
    lines.push('')
  }
  if (lists.unmerged.length > 0) {
    lines.push('Unmerged paths:', '  (use "git add <file>..." to mark resolution)')
    for (const s of lists.unmerged) lines.push(`\t${paint(RED, `${`${s.label}:`.padEnd(17)}${quotePath(displayPath(ctx, s.path))}`)}`)
    lines.push('')
  }
  if (lists.untracked.length > 0) {
    lines.push('Untracked files:', '  (use "git add <file>..." to include in what will be committed)')
    for (const path of lists.untracked) lines.push(`\t${paint(RED, quotePath(displayPath(ctx, path)))}`)
    lines.push('')
  }
  if (lists.staged.length === 0) {
    if (lists.unstaged.length > 0 || lists.unmerged.length > 0) lines.push('no changes added to commit (use "git add" and/or "git commit -a")')
    else if (lists.untracked.length > 0) lines.push('nothing added to commit but untracked files present (use "git add" to track)')
    else if (head === null) lines.push('nothing to commit (create/copy files and use "git add" to track)')
    else if (!untrackedShown) lines.push('nothing to commit (use -u to show untracked files)')
    else lines.push('nothing to commit, working tree clean')
  }
  return `${lines.join('\n')}\n`
}

const SHORT_CODE = { 'new file': 'A', modified: 'M', deleted: 'D', renamed: 'R' } as const

async function shortStatus(ctx: GitContext, lists: StatusLists, porcelain: boolean, branchLine: boolean): Promise<string> {
  const paint = (color: string, text: string) => (ctx.color && !porcelain ? `${color}${text}${RESET}` : text)
  const show = (path: string) => quotePath(porcelain ? path : displayPath(ctx, path), true)
  const rows = new Map<string, { x: string; y: string; text: string }>()
  for (const s of lists.staged) {
    rows.set(s.path, { x: SHORT_CODE[s.kind], y: ' ', text: s.from === undefined ? show(s.path) : `${show(s.from)} -> ${show(s.path)}` })
  }
  for (const s of lists.unstaged) {
    const row = rows.get(s.path) ?? { x: ' ', y: ' ', text: show(s.path) }
    rows.set(s.path, { ...row, y: s.kind === 'deleted' ? 'D' : 'M' })
  }
  const lines: string[] = []
  if (branchLine) {
    const branch = await currentBranch(ctx)
    const head = await headOid(ctx)
    const name = branch === null ? 'HEAD (no branch)' : head === null ? `No commits yet on ${branch}` : branch
    lines.push(porcelain ? `## ${name}` : `## ${paint(GREEN, name)}`)
  }
  for (const s of lists.unmerged) rows.set(s.path, { x: s.code[0]!, y: s.code[1]!, text: show(s.path) })
  for (const path of [...rows.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const row = rows.get(path)!
    const x = row.x === ' ' ? ' ' : paint(GREEN, row.x)
    const y = row.y === ' ' ? ' ' : paint(RED, row.y)
    lines.push(`${x}${y} ${row.text}`)
  }
  for (const path of lists.untracked) lines.push(`${paint(RED, '??')} ${show(path)}`)
  return lines.length ? `${lines.join('\n')}\n` : ''
}

export const status: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    // A bare -u is -uall; -uno and --untracked-files=no carry their value.
    const parsed = parseArgs(args.map((arg) => (arg === '-u' || arg === '--untracked-files' ? '--untracked-files=all' : arg)), {
      values: { '-u': 'untracked', '--untracked-files': 'untracked' },
      booleans: { '-s': 'short', '--short': 'short', '--porcelain': 'porcelain', '-b': 'branch', '--branch': 'branch', '--long': 'long' },
    })
    if (parsed.unknown) return unsupported(`git status ${parsed.unknown}`)
    const untracked = value(parsed, 'untracked') ?? 'normal'
    if (untracked !== 'normal' && untracked !== 'all' && untracked !== 'no') return fatal(`Invalid untracked files mode '${untracked}'`)
    let lists: StatusLists
    try {
      lists = await statusFor(ctx, [...parsed.positional, ...parsed.paths], untracked)
    } catch (error) {
      return fatal(error instanceof Error ? error.message : String(error))
    }
    const porcelain = has(parsed, 'porcelain')
    if ((has(parsed, 'short') || porcelain) && !has(parsed, 'long')) return ok(await shortStatus(ctx, lists, porcelain, has(parsed, 'branch')))
    return ok(await longStatus(ctx, lists, false, untracked !== 'no'))
  },
}
