/**
 * `git show [<object>...] [--stat|--name-only|--name-status|-s|--oneline]`: a commit's header
 * and its changes against its first parent, an annotated tag then its commit, or a file as
 * `<rev>:<path>` names it.
 */

import git from 'isomorphic-git'
import { has, parseArgs } from '../git-args'
import { fatal, ok, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { commitHeader, gitDate, oneLine } from '../repo-commit-format'
import { collectChanges, objectSide } from '../repo-diff'
import { treeEntries } from '../repo-entries'
import { repoArgs, resolveCommit, resolveObject } from '../repo-revisions'
import { ambiguous, DIFF_FLAGS, DIFF_VALUES, printChanges } from './diff'

export const show: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { ...DIFF_FLAGS, '-s': 'no-patch', '--no-patch': 'no-patch', '--oneline': 'oneline' },
      values: DIFF_VALUES,
    })
    if (parsed.unknown) return unsupported(`git show ${parsed.unknown}`)
    if (parsed.paths.length > 0) return unsupported('git show -- <path>')
    const names = parsed.positional.length > 0 ? parsed.positional : ['HEAD']
    let stdout = ''
    for (const name of names) {
      const one = await showOne(ctx, name, parsed)
      if (one.exitCode !== 0) return { ...one, stdout: stdout + one.stdout }
      stdout += one.stdout
    }
    return ok(stdout)
  },
}

async function showOne(ctx: GitContext, name: string, parsed: ReturnType<typeof parseArgs>): Promise<GitOutput> {
  const colon = name.indexOf(':')
  if (colon !== -1) return showFile(ctx, name.slice(0, colon) || 'HEAD', name.slice(colon + 1))
  const oid = await resolveObject(ctx, name)
  if (oid === null) return ambiguous(name)
  const { type, object } = await git.readObject({ ...repoArgs(ctx), oid, format: 'parsed' })
  if (type === 'blob') return ok(new TextDecoder().decode(object as Uint8Array))
  if (type === 'tag') {
    const tag = object as { tag: string; tagger: { name: string; email: string; timestamp: number; timezoneOffset: number }; message: string; object: string }
    const head = `tag ${tag.tag}\nTagger: ${tag.tagger.name} <${tag.tagger.email}>\nDate:   ${gitDate(tag.tagger.timestamp, tag.tagger.timezoneOffset)}\n\n${tag.message.replace(/\n+$/, '')}\n\n`
    const commit = await resolveCommit(ctx, oid)
    return commit === null ? ok(head) : ok(head + (await showCommit(ctx, commit, parsed)))
  }
  if (type !== 'commit') return unsupported(`git show of a ${type}`)
  return ok(await showCommit(ctx, oid, parsed))
}

async function showCommit(ctx: GitContext, oid: string, parsed: ReturnType<typeof parseArgs>): Promise<string> {
  const color = has(parsed, 'no-color') ? false : has(parsed, 'color') || ctx.color
  const header = has(parsed, 'oneline') ? `${await oneLine(ctx, oid)}\n` : await commitHeader(ctx, oid, color)
  const { commit } = await git.readCommit({ ...repoArgs(ctx), oid })
  if (has(parsed, 'no-patch')) return header
  // A merge's combined diff is not drawn (git's is empty for a clean merge: a blank line).
  if (commit.parent.length > 1) return has(parsed, 'oneline') ? header : `${header}\n`
  const before = commit.parent[0] ? await treeEntries(ctx, commit.parent[0]) : new Map()
  const changes = await collectChanges(objectSide(ctx, before), objectSide(ctx, await treeEntries(ctx, oid)))
  const body = printChanges(changes, parsed, ctx)
  if (body === '') return header
  return `${header}${has(parsed, 'oneline') ? '' : '\n'}${body}`
}

async function showFile(ctx: GitContext, rev: string, path: string): Promise<GitOutput> {
  const commit = await resolveCommit(ctx, rev)
  if (commit === null) return ambiguous(`${rev}:${path}`)
  const clean = path.replace(/^\.\//, '')
  const entry = (await treeEntries(ctx, commit)).get(clean)
  if (!entry) return fatal(`path '${clean}' does not exist in '${rev}'`)
  const { blob } = await git.readBlob({ ...repoArgs(ctx), oid: entry.oid })
  return ok(new TextDecoder().decode(blob))
}
