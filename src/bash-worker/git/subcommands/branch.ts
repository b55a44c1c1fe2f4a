/**
 * `git branch`: lists (`-a`, `-r`, `-v`), creates (`<name> [<start>]`), deletes (`-d`, `-D`),
 * renames (`-m`) and names the current one (`--show-current`), in git's words.
 */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fatal, ok, unsupported, type GitContext, type GitSubcommand } from '../git-context'
import { joinPath } from '../git-paths'
import { currentBranch, headOid, repo, resolveCommitish, shortOid } from '../repo-head'
import { subjectOf } from './commit'

const GREEN = '\x1b[32m'
const RED = '\x1b[31m'
const RESET = '\x1b[m'

/** git's check-ref-format rules for a branch name, the ones a person meets. */
export function validBranchName(name: string): boolean {
  return !(
    name === '' || name === 'HEAD' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') ||
    name.endsWith('.lock') || name.includes('..') || name.includes('//') || name.includes('@{') || /[\s~^:?*[\\\x00-\x1f\x7f]/.test(name) ||
    name.split('/').some((part) => part.startsWith('.'))
  )
}

async function list(ctx: GitContext, local: boolean, remote: boolean, verbose: boolean): Promise<string> {
  const r = repo(ctx)
  const paint = (color: string, text: string) => (ctx.color ? `${color}${text}${RESET}` : text)
  const current = await currentBranch(ctx)
  const head = await headOid(ctx)
  const rows: Array<{ mark: string; name: string; ref: string }> = []
  if (current === null && head !== null) rows.push({ mark: '*', name: `(HEAD detached at ${shortOid(head)})`, ref: head })
  if (local) {
    for (const name of (await git.listBranches(r)).sort()) rows.push({ mark: name === current ? '*' : ' ', name, ref: `refs/heads/${name}` })
  }
  if (remote) {
    for (const remoteName of (await git.listRemotes(r)).map((x) => x.remote).sort()) {
      for (const name of (await git.listBranches({ ...r, remote: remoteName })).sort()) {
        rows.push({ mark: ' ', name: `${local ? 'remotes/' : ''}${remoteName}/${name}`, ref: `refs/remotes/${remoteName}/${name}` })
      }
    }
  }
  const width = Math.max(0, ...rows.map((row) => row.name.length))
  const lines: string[] = []
  for (const row of rows) {
    const color = row.mark === '*' ? GREEN : row.ref.startsWith('refs/remotes/') ? RED : ''
    const name = verbose ? row.name.padEnd(width) : row.name
    // git ends an uncoloured name with a reset too.
    let line = `${row.mark} ${color ? paint(color, name) : ctx.color ? `${name}${RESET}` : name}`
    if (verbose) {
      const oid = await git.resolveRef({ ...r, ref: row.ref }).catch(() => row.ref)
      const { commit } = await git.readCommit({ ...r, oid })
      line += ` ${shortOid(oid)} ${subjectOf(commit.message)}`
    }
    lines.push(line)
  }
  return lines.map((line) => `${line}\n`).join('')
}

async function remove(ctx: GitContext, names: string[], force: boolean) {
  const r = repo(ctx)
  const current = await currentBranch(ctx)
  const head = await headOid(ctx)
  const out: string[] = []
  const errors: string[] = []
  for (const name of names) {
    const oid = await git.resolveRef({ ...r, ref: `refs/heads/${name}` }).catch(() => null)
    if (oid === null) errors.push(`error: branch '${name}' not found.`)
    else if (name === current) errors.push(`error: Cannot delete branch '${name}' checked out at '${r.dir}'`)
    else if (!force && head !== oid && !(head !== null && (await git.isDescendent({ ...r, oid: head, ancestor: oid, depth: -1 })))) {
      errors.push(`error: The branch '${name}' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D ${name}'.`)
    } else {
      await git.deleteBranch({ ...r, ref: name })
      out.push(`Deleted branch ${name} (was ${shortOid(oid)}).\n`)
    }
  }
  return { stdout: out.join(''), stderr: errors.map((e) => `${e}\n`).join(''), exitCode: errors.length ? 1 : 0 }
}

async function rename(ctx: GitContext, from: string, to: string, force: boolean) {
  const r = repo(ctx)
  if (!validBranchName(to)) return fatal(`'${to}' is not a valid branch name`)
  const current = await currentBranch(ctx)
  const exists = async (name: string) => (await git.resolveRef({ ...r, ref: `refs/heads/${name}` }).catch(() => null)) !== null
  if (!(await exists(from))) {
    if (from === current) {
      // An unborn branch has no ref yet: renaming it only renames what HEAD names.
      await ctx.fs.writeFile(joinPath(r.gitdir, 'HEAD'), `ref: refs/heads/${to}\n`)
      return ok()
    }
    return fatal(`No branch named '${from}'.`)
  }
  if (from !== to && (await exists(to)) && !force) return fatal(`a branch named '${to}' already exists`)
  if (from !== to && force) await git.deleteBranch({ ...r, ref: to }).catch(() => undefined)
  await git.renameBranch({ ...r, oldref: from, ref: to, checkout: from === current })
  return ok()
}

export const branch: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: {
        '-d': 'delete', '--delete': 'delete', '-D': 'forceDelete', '-m': 'move', '--move': 'move', '-M': 'forceMove',
        '-a': 'all', '--all': 'all', '-r': 'remotes', '--remotes': 'remotes', '--show-current': 'showCurrent',
        '-v': 'verbose', '--verbose': 'verbose', '-f': 'force', '--force': 'force', '--list': 'list', '-l': 'list',
      },
    })
    if (parsed.unknown) return unsupported(`git branch ${parsed.unknown}`)
    const names = [...parsed.positional, ...parsed.paths]
    const r = repo(ctx)
    if (has(parsed, 'showCurrent')) {
      const current = await currentBranch(ctx)
      return ok(current === null ? '' : `${current}\n`)
    }
    if (has(parsed, 'delete') || has(parsed, 'forceDelete')) {
      if (names.length === 0) return fatal('branch name required')
      return remove(ctx, names, has(parsed, 'forceDelete') || has(parsed, 'force'))
    }
    if (has(parsed, 'move') || has(parsed, 'forceMove')) {
      const force = has(parsed, 'forceMove') || has(parsed, 'force')
      if (names.length === 1) {
        const current = await currentBranch(ctx)
        if (current === null) return fatal('cannot rename the current branch while not on any.')
        return rename(ctx, current, names[0]!, force)
      }
      if (names.length === 2) return rename(ctx, names[0]!, names[1]!, force)
      return fatal('too many arguments for a rename operation')
    }
    if (names.length === 0 || has(parsed, 'list')) {
      if (names.length > 0) return unsupported('git branch --list <pattern>')
      return ok(await list(ctx, !has(parsed, 'remotes'), has(parsed, 'all') || has(parsed, 'remotes'), has(parsed, 'verbose')))
    }
    if (names.length > 2) return fatal('too many arguments')
    const [name, start = 'HEAD'] = names as [string, string?]
    if (!validBranchName(name)) return fatal(`'${name}' is not a valid branch name`)
    const oid = await resolveCommitish(ctx, start)
    if (oid === null) return fatal(`not a valid object name: '${start === 'HEAD' ? ((await currentBranch(ctx)) ?? 'HEAD') : start}'`)
    const exists = (await git.resolveRef({ ...r, ref: `refs/heads/${name}` }).catch(() => null)) !== null
    if (exists && !has(parsed, 'force')) return fatal(`a branch named '${name}' already exists`)
    if (exists && name === (await currentBranch(ctx))) return fatal(`cannot force update the current branch.`)
    await git.writeRef({ ...r, ref: `refs/heads/${name}`, value: oid, force: true })
    return ok()
  },
}
