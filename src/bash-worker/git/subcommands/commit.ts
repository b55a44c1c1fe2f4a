/**
 * `git commit [-a] [-m <msg>... | -F <file>] [--amend] [--no-edit] [--allow-empty] [-q] [[--] <path>...]`. There is no editor
 * in the tab: a commit that would open one says so in one line instead.
 */

import git from 'isomorphic-git'
import { parseArgs, has, value } from '../git-args'
import { fail, fatal, ok, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { joinPath } from '../git-paths'
import { currentBranch, headOid, repo, repoPath, shortOid, underPath } from '../repo-head'
import { gitDate, identity, type Person } from '../repo-identity'
import { mergeHead, unmergedPaths } from '../repo-unmerged'
import { fileStates, statusLists } from '../repo-status'
import { statSummary, summaryLines, treeChanges } from '../repo-tree-diff'
import { stageStates } from './add'
import { longStatus } from './status'

async function readGitFile(ctx: GitContext, name: string): Promise<string> {
  return ctx.fs.readFile(joinPath(repo(ctx).gitdir, name)).catch(() => '')
}

/** git's `whitespace` cleanup: no trailing spaces, no leading or trailing or doubled blank lines. */
export function cleanMessage(message: string): string {
  const lines = message.split('\n').map((line) => line.trimEnd())
  const out: string[] = []
  for (const line of lines) {
    if (line === '' && (out.length === 0 || out.at(-1) === '')) continue
    out.push(line)
  }
  while (out.at(-1) === '') out.pop()
  return out.length ? `${out.join('\n')}\n` : ''
}

/** The subject git prints for a commit: the first paragraph's lines joined by spaces. */
export function subjectOf(message: string): string {
  const paragraph = message.split(/\n\s*\n/)[0] ?? ''
  return paragraph.split('\n').map((l) => l.trim()).filter(Boolean).join(' ')
}

export const commit: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: {
        '-a': 'all', '--all': 'all', '--amend': 'amend', '--no-edit': 'noEdit', '--allow-empty': 'allowEmpty',
        '-q': 'quiet', '--quiet': 'quiet',
      },
      values: { '-m': 'message', '--message': 'message', '-F': 'file', '--file': 'file' },
    })
    if (parsed.unknown) return unsupported(`git commit ${parsed.unknown}`)
    let messages = parsed.flags.get('message')
    const file = value(parsed, 'file')
    if (file !== undefined) {
      if (messages !== undefined) return fatal("options '-m' and '-F' cannot be used together")
      // -F - reads the message from stdin (a heredoc), as git does.
      const text = file === '-' ? ctx.stdin : await ctx.fs.readFile(ctx.fs.resolvePath(ctx.cwd, file)).catch(() => null)
      if (text === null) return fatal(`could not read log file '${file}': No such file or directory`)
      messages = [text]
    }
    const r = repo(ctx)
    const amend = has(parsed, 'amend')
    const parent = await headOid(ctx)
    if (amend && parent === null) return fail('fatal: You have nothing to amend.', 128)
    // A merge in progress (MERGE_HEAD) is concluded by this commit, once no conflict is left.
    const merging = await mergeHead(ctx)
    if (merging !== null && amend) return fatal('You are in the middle of a merge -- cannot amend.')
    const conflicts = await unmergedPaths(ctx)
    if (conflicts.size > 0) {
      const refused = fail(
        'error: Committing is not possible because you have unmerged files.\nhint: Fix them up in the work tree, and then use \'git add/rm <file>\'\n' +
          'hint: as appropriate to mark resolution and make a commit.\nfatal: Exiting because of an unresolved conflict.',
        128,
      )
      return { ...refused, stdout: [...conflicts.keys()].sort().map((path) => `U\t${path}\n`).join('') }
    }
    const pathArgs = [...parsed.positional, ...parsed.paths]
    const specs: string[] = []
    if (pathArgs.length > 0) {
      if (has(parsed, 'all')) return fatal(`paths '${pathArgs.join(' ')} ...' with -a does not make sense`)
      const tracked = (await fileStates(ctx)).filter((s) => s.stage !== undefined)
      for (const path of pathArgs) {
        const spec = repoPath(ctx, path)
        if (spec === null) return fatal(`${path}: '${path}' is outside repository at '${r.dir}'`)
        if (!tracked.some((s) => underPath(s.path, spec))) return fail(`error: pathspec '${path}' did not match any file(s) known to git`)
        specs.push(spec)
      }
    }
    const cache = {}
    let states = specs.length > 0 ? null : await fileStates(ctx, cache)
    if (states && has(parsed, 'all')) {
      await stageStates(ctx, states, [''], true, cache)
      // What -a staged, without walking the whole tree again: each tracked file's index entry
      // is now its work tree's (none for a deleted one).
      states = states.map((s) => (s.stage === undefined ? s : { ...s, stage: s.workdir }))
    }
    const only = specs.length > 0 ? await onlyPaths(ctx, specs) : null
    const lists = statusLists(states ?? (await fileStates(ctx, only?.cache ?? cache)))
    if (lists.staged.length === 0 && !amend && !has(parsed, 'allowEmpty') && merging === null) {
      // git shows the status of the index it would have committed (with paths: the swapped one).
      await only?.restore(false)
      return { stdout: await longStatus(ctx, lists, true), stderr: '', exitCode: 1 }
    }
    const old = amend && parent !== null ? (await git.readCommit({ ...r, oid: parent, cache })).commit : null
    let message: string
    if (messages !== undefined) message = cleanMessage(messages.join('\n\n'))
    else if (old !== null && has(parsed, 'noEdit')) message = old.message
    else if (merging !== null && has(parsed, 'noEdit')) message = cleanMessage(await readGitFile(ctx, 'MERGE_MSG'))
    else if (has(parsed, 'noEdit')) message = ''
    else {
      await only?.restore(false)
      return fail("error: fxterm's git has no editor to write the message in: give it with -m")
    }
    if (message === '') {
      await only?.restore(false)
      return fail('Aborting commit due to empty commit message.')
    }
    // Amending keeps the author (and the date) of the commit amended, as git does.
    const author: Person = old ? { ...old.author } : await identity(ctx, 'author')
    const committer = await identity(ctx, 'committer')
    let oid: string
    try {
      const parents = merging !== null && parent !== null ? [parent, merging] : old ? old.parent : null
      oid = await git.commit({ ...r, cache: only?.cache ?? cache, message, author, committer, ...(parents ? { parent: parents } : {}) })
    } finally {
      await only?.restore()
    }
    if (merging !== null) {
      for (const name of ['MERGE_HEAD', 'MERGE_MSG', 'MERGE_MODE', 'AUTO_MERGE']) await ctx.fs.rm(joinPath(r.gitdir, name), { force: true })
      // git prints no diffstat for a merge commit.
      if (!has(parsed, 'quiet')) return ok(`[${(await currentBranch(ctx)) ?? 'detached HEAD'} ${shortOid(oid)}] ${subjectOf(message)}\n`)
    }
    if (has(parsed, 'quiet')) return ok()
    return ok(await summary(ctx, oid, old ? (old.parent[0] ?? null) : parent, message, author, committer, amend))
  },
}

/**
 * `git commit <path>...` commits HEAD plus the work tree's content of those paths only; what
 * else is staged stays staged. For the commit the index is swapped for one made that way; the
 * person's index comes back after (`restore`), with the paths brought up to date when the
 * commit was made (`committed`), as git leaves them.
 */
async function onlyPaths(ctx: GitContext, specs: string[]): Promise<{ cache: object; restore(committed?: boolean): Promise<void> }> {
  const r = repo(ctx)
  const indexPath = joinPath(r.gitdir, 'index')
  const saved = await ctx.fs.readFileBuffer(indexPath).catch(() => null)
  const cache = {}
  const states = await fileStates(ctx, cache)
  for (const s of states) {
    if (s.head !== s.stage && !specs.some((spec) => underPath(s.path, spec))) await git.resetIndex({ ...r, filepath: s.path, cache })
  }
  await stageStates(ctx, states, specs, true, cache)
  return {
    cache,
    async restore(committed = true) {
      if (saved) await ctx.fs.writeFile(indexPath, saved)
      else await ctx.fs.rm(indexPath, { force: true })
      // A fresh cache: isomorphic-git would otherwise keep the swapped index it read.
      const fresh = {}
      if (committed) await stageStates(ctx, await fileStates(ctx, fresh), specs, true, fresh)
    },
  }
}

async function summary(
  ctx: GitContext,
  oid: string,
  parent: string | null,
  message: string,
  author: Person,
  committer: Person,
  amend: boolean,
): Promise<GitOutput['stdout']> {
  const branch = await currentBranch(ctx)
  const where = branch === null ? 'detached HEAD' : parent === null && !amend ? `${branch} (root-commit)` : branch
  const lines = [`[${where} ${shortOid(oid)}] ${subjectOf(message)}`]
  if (author.name !== committer.name || author.email !== committer.email) lines.push(` Author: ${author.name} <${author.email}>`)
  if (amend) lines.push(` Date: ${gitDate(author)}`)
  const changes = await treeChanges(ctx, parent, oid)
  // An empty commit gets no summary at all, as in git.
  if (changes.length > 0) lines.push(statSummary(changes), ...summaryLines(changes))
  return `${lines.join('\n')}\n`
}
