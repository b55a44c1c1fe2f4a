/**
 * `git log [<revision> | <a>..<b>] [--oneline] [-n <n> | -<n> | --max-count=<n>] [--stat |
 * --name-only | --name-status] [--format=<fmt> | --pretty=<fmt>] [--decorate] [--reverse]
 * [--author=<re>] [--grep=<re>] [[--] <path>...]`, printed as git prints it.
 */

import git, { type ReadCommitResult } from 'isomorphic-git'
import { parseArgs, has, value } from '../git-args'
import { fail, fatal, ok, unsupported, type GitContext, type GitSubcommand } from '../git-context'
import { currentBranch, quotePath, repo, repoPath, resolveCommitish, shortOid } from '../repo-head'
import { gitDate, isoDate, relativeDate } from '../repo-identity'
import { statLines, statSummary, treeChanges, type TreeChange } from '../repo-tree-diff'
import { subjectOf } from './commit'

type Format = { kind: 'medium' } | { kind: 'oneline'; abbrev: boolean } | { kind: 'custom'; template: string; terminate: boolean }

function formatOf(pretty: string | undefined, format: string | undefined, oneline: boolean): Format | string {
  if (format !== undefined) return { kind: 'custom', template: format, terminate: true }
  // --oneline is --pretty=oneline with abbreviated ids.
  if (pretty === undefined) return oneline ? { kind: 'oneline', abbrev: true } : { kind: 'medium' }
  if (pretty === 'oneline') return { kind: 'oneline', abbrev: oneline }
  if (pretty === 'medium') return { kind: 'medium' }
  if (pretty.startsWith('format:')) return { kind: 'custom', template: pretty.slice(7), terminate: false }
  if (pretty.startsWith('tformat:')) return { kind: 'custom', template: pretty.slice(8), terminate: true }
  if (pretty.includes('%')) return { kind: 'custom', template: pretty, terminate: true }
  return `--pretty=${pretty}`
}

/** The body: the message after its subject paragraph. */
function bodyOf(message: string): string {
  const at = message.search(/\n\s*\n/)
  if (at === -1) return ''
  return message.slice(at).replace(/^\s*\n/, '').replace(/^\n+/, '')
}

function expand(template: string, entry: ReadCommitResult, now: number, refs: string[] | undefined): string {
  const { commit, oid } = entry
  const { author, committer } = commit
  const table: Record<string, () => string> = {
    H: () => oid, h: () => shortOid(oid), T: () => commit.tree, t: () => shortOid(commit.tree),
    P: () => commit.parent.join(' '), p: () => commit.parent.map(shortOid).join(' '),
    s: () => subjectOf(commit.message), b: () => bodyOf(commit.message), B: () => commit.message,
    an: () => author.name, ae: () => author.email, ad: () => gitDate(author), at: () => String(author.timestamp),
    ai: () => isoDate(author), aI: () => isoDate(author, true), as: () => isoDate(author).slice(0, 10), ar: () => relativeDate(author.timestamp, now),
    cn: () => committer.name, ce: () => committer.email, cd: () => gitDate(committer), ct: () => String(committer.timestamp),
    ci: () => isoDate(committer), cI: () => isoDate(committer, true), cs: () => isoDate(committer).slice(0, 10), cr: () => relativeDate(committer.timestamp, now),
    d: () => (refs ? ` (${refs.join(', ')})` : ''), D: () => (refs ? refs.join(', ') : ''),
    n: () => '\n', '%': () => '%',
  }
  return template.replace(/%([ac][nedtiIsr]|[HhTtPpsbBndD%])/g, (whole, key: string) => table[key]?.() ?? whole)
}

/** `HEAD -> main, tag: v1, other` for each commit a ref names. */
async function decorations(ctx: GitContext): Promise<Map<string, string[]>> {
  const r = repo(ctx)
  const names = new Map<string, string[]>()
  const add = (oid: string, name: string) => names.set(oid, [...(names.get(oid) ?? []), name])
  const current = await currentBranch(ctx)
  const head = await git.resolveRef({ ...r, ref: 'HEAD' }).catch(() => null)
  if (head !== null && current === null) add(head, 'HEAD')
  for (const b of (await git.listBranches(r)).sort()) {
    const oid = await git.resolveRef({ ...r, ref: `refs/heads/${b}` })
    add(oid, b === current ? `HEAD -> ${b}` : b)
  }
  for (const t of (await git.listTags(r)).sort()) {
    const oid = await resolveCommitish(ctx, `refs/tags/${t}`)
    if (oid !== null) add(oid, `tag: ${t}`)
  }
  // git prepends each ref as it reads them in order, then puts what HEAD names first.
  for (const list of names.values()) list.reverse().sort((a, b) => Number(b.startsWith('HEAD')) - Number(a.startsWith('HEAD')))
  return names
}

/**
 * The commits reachable from `start`, each once, newest committer date first (ties in the
 * order met), as git log walks by default. isomorphic-git's log lists a commit reachable
 * through two parents twice.
 */
async function* history(ctx: GitContext, start: string, cache: object): AsyncGenerator<ReadCommitResult> {
  const r = repo(ctx)
  const seen = new Set<string>([start])
  const queue: ReadCommitResult[] = [await git.readCommit({ ...r, oid: start, cache })]
  while (queue.length > 0) {
    let best = 0
    for (let i = 1; i < queue.length; i++) if (queue[i]!.commit.committer.timestamp > queue[best]!.commit.committer.timestamp) best = i
    const [entry] = queue.splice(best, 1)
    yield entry!
    for (const parent of entry!.commit.parent) {
      if (seen.has(parent)) continue
      seen.add(parent)
      const found = await git.readCommit({ ...r, oid: parent, cache }).catch(() => null) // a shallow clone's edge
      if (found) queue.push(found)
    }
  }
}

/** A `--name-status` line: `M\ta.txt`, `R100\told\tnew`. */
function nameStatus(change: TreeChange): string {
  if (change.from !== undefined) return `R100\t${quotePath(change.from)}\t${quotePath(change.path)}`
  const code = change.oldOid === undefined ? 'A' : change.newOid === undefined ? 'D' : 'M'
  return `${code}\t${quotePath(change.path)}`
}

/** Whether `path` differs between the commit and its first parent (git's default simplification). */
async function touches(ctx: GitContext, entry: ReadCommitResult, specs: string[]): Promise<boolean> {
  const r = repo(ctx)
  const at = (oid: string | undefined, path: string) =>
    oid === undefined ? Promise.resolve(null) : git.readObject({ ...r, oid, filepath: path, format: 'deflated' }).then((o) => o.oid, () => null)
  for (const spec of specs) {
    if (spec === '') return true
    if ((await at(entry.oid, spec)) !== (await at(entry.commit.parent[0], spec))) return true
  }
  return false
}

export const log: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: {
        '--oneline': 'oneline', '--stat': 'stat', '--decorate': 'decorate', '--no-decorate': 'noDecorate', '--reverse': 'reverse',
        '--name-only': 'nameOnly', '--name-status': 'nameStatus',
      },
      values: { '-n': 'count', '--max-count': 'count', '--format': 'format', '--pretty': 'pretty', '--author': 'author', '--grep': 'grep' },
    })
    if (parsed.unknown) return unsupported(`git log ${parsed.unknown}`)
    const format = formatOf(value(parsed, 'pretty'), value(parsed, 'format'), has(parsed, 'oneline'))
    if (typeof format === 'string') return unsupported(`git log ${format}`)
    const countText = value(parsed, 'count')
    const count = countText === undefined ? Infinity : Number(countText)
    if (countText !== undefined && (!Number.isInteger(count) || count < 0)) return fatal(`'${countText}': not an integer`)
    let start = 'HEAD'
    let exclude: string | null = null
    const specs: string[] = []
    for (const arg of parsed.positional) {
      const range = /^(.*?)\.\.(.*)$/.exec(arg)
      if (range && !range[1]!.includes('.') && specs.length === 0 && start === 'HEAD') {
        // A..B: the commits B has that A has not (an empty side is HEAD).
        exclude = range[1] || 'HEAD'
        start = range[2] || 'HEAD'
        if ((await resolveCommitish(ctx, exclude)) === null || (await resolveCommitish(ctx, start)) === null) {
          return fail(`fatal: ambiguous argument '${arg}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`, 128)
        }
      } else if ((await resolveCommitish(ctx, arg)) !== null && specs.length === 0 && start === 'HEAD') start = arg
      else if (await ctx.fs.exists(ctx.fs.resolvePath(ctx.cwd, arg))) specs.push(repoPath(ctx, arg) ?? arg)
      else {
        return fail(`fatal: ambiguous argument '${arg}': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'`, 128)
      }
    }
    for (const path of parsed.paths) {
      const spec = repoPath(ctx, path)
      if (spec === null) return fatal(`${path}: '${path}' is outside repository at '${ctx.dir}'`)
      specs.push(spec)
    }
    const oid = await resolveCommitish(ctx, start)
    if (oid === null) {
      const branch = await currentBranch(ctx)
      return fatal(start === 'HEAD' && branch !== null ? `your current branch '${branch}' does not have any commits yet` : `bad revision '${start}'`)
    }
    let author: RegExp | null = null
    let grep: RegExp | null = null
    try {
      author = value(parsed, 'author') === undefined ? null : new RegExp(value(parsed, 'author')!)
      grep = value(parsed, 'grep') === undefined ? null : new RegExp(value(parsed, 'grep')!, 'm') // line by line, as git greps
    } catch {
      return fatal(`invalid regular expression: ${value(parsed, 'author') ?? value(parsed, 'grep')}`)
    }
    const matches = ({ commit }: ReadCommitResult) =>
      (author === null || author.test(`${commit.author.name} <${commit.author.email}>`)) && (grep === null || grep.test(commit.message))
    const cache = {}
    const excluded = new Set<string>()
    if (exclude !== null) {
      for await (const entry of history(ctx, (await resolveCommitish(ctx, exclude))!, cache)) excluded.add(entry.oid)
    }
    const entries: ReadCommitResult[] = []
    for await (const entry of history(ctx, oid, cache)) {
      if (entries.length >= count) break
      if (excluded.has(entry.oid)) continue
      if (!matches(entry)) continue
      if (specs.length === 0 || (await touches(ctx, entry, specs))) entries.push(entry)
    }
    // --reverse turns the commits chosen (after -n) around, as git does.
    if (has(parsed, 'reverse')) entries.reverse()
    const decorate = has(parsed, 'decorate') || (ctx.env.FXTERM_TTY === '1' && !has(parsed, 'noDecorate'))
    const customRefs = format.kind === 'custom' && /%[dD]/.test(format.template)
    const allRefs = decorate || customRefs ? await decorations(ctx) : new Map<string, string[]>()
    const refs = decorate ? allRefs : new Map<string, string[]>()
    const paint = (code: string, text: string) => (ctx.color ? `\x1b[${code}m${text}\x1b[m` : text)
    const yellow = (text: string) => paint('33', text)
    // git's colours: HEAD bold cyan, branches bold green, tags bold yellow, the rest yellow.
    const part = (name: string) =>
      name.startsWith('HEAD -> ') ? `${paint('1;36', 'HEAD -> ')}${paint('1;32', name.slice(8))}`
        : name === 'HEAD' ? paint('1;36', name)
        : name.startsWith('tag: ') ? paint('1;33', name)
        : paint('1;32', name)
    const deco = (id: string) => (refs.has(id) ? `${yellow(' (')}${refs.get(id)!.map(part).join(yellow(', '))}${yellow(')')}` : '')
    const blocks: string[] = []
    for (const entry of entries) {
      const { commit } = entry
      let text: string
      if (format.kind === 'oneline') text = `${yellow(format.abbrev ? shortOid(entry.oid) : entry.oid)}${deco(entry.oid)} ${subjectOf(commit.message)}\n`
      else if (format.kind === 'custom') text = `${expand(format.template, entry, ctx.nowSeconds(), allRefs.get(entry.oid))}${format.terminate ? '\n' : ''}`
      else {
        const lines = [`${yellow(`commit ${entry.oid}`)}${deco(entry.oid)}`]
        if (commit.parent.length > 1) lines.push(`Merge: ${commit.parent.map(shortOid).join(' ')}`)
        lines.push(`Author: ${commit.author.name} <${commit.author.email}>`, `Date:   ${gitDate(commit.author)}`, '')
        for (const line of commit.message.replace(/\n$/, '').split('\n')) lines.push(`    ${line}`)
        text = `${lines.join('\n')}\n`
      }
      const listing = has(parsed, 'stat') || has(parsed, 'nameOnly') || has(parsed, 'nameStatus')
      if (listing && commit.parent.length <= 1) {
        const changes = await treeChanges(ctx, commit.parent[0] ?? null, entry.oid)
        if (changes.length > 0) {
          const stat = has(parsed, 'stat')
            ? [...statLines(changes), statSummary(changes)].join('\n')
            : changes.map((c) => (has(parsed, 'nameOnly') ? quotePath(c.path) : nameStatus(c))).join('\n')
          // A blank line parts the stat from a commit's text, except after --oneline.
          text += format.kind === 'oneline' ? `${stat}\n` : `\n${stat}\n`
        }
      }
      blocks.push(text)
    }
    if (format.kind === 'medium') return ok(blocks.join('\n'))
    if (format.kind === 'custom' && !format.terminate) return ok(blocks.map((b) => b).join('\n'))
    return ok(blocks.join(''))
  },
}
