/**
 * `git tag`: lists (`-l [<pattern>]`), creates lightweight (`<name> [<commit>]`) and annotated
 * (`-a -m <msg>`) tags, and deletes them (`-d`), in git's words.
 */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, fatal, ok, unsupported, type GitSubcommand } from '../git-context'
import { currentBranch, repo, resolveCommitish, shortOid } from '../repo-head'
import { identity } from '../repo-identity'
import { validBranchName } from './branch'
import { cleanMessage } from './commit'

/** A shell glob (`v1.*`) as a regular expression over the whole name. */
function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')
  return new RegExp(`^${body}$`)
}

export const tag: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-a': 'annotate', '--annotate': 'annotate', '-d': 'delete', '--delete': 'delete', '-l': 'list', '--list': 'list', '-f': 'force', '--force': 'force' },
      values: { '-m': 'message', '--message': 'message' },
    })
    if (parsed.unknown) return unsupported(`git tag ${parsed.unknown}`)
    const r = repo(ctx)
    const names = [...parsed.positional, ...parsed.paths]
    if (has(parsed, 'delete')) {
      const out: string[] = []
      const errors: string[] = []
      for (const name of names) {
        const oid = await git.resolveRef({ ...r, ref: `refs/tags/${name}`, depth: 1 }).catch(() => null)
        if (oid === null) errors.push(`error: tag '${name}' not found.\n`)
        else {
          await git.deleteTag({ ...r, ref: name })
          out.push(`Deleted tag '${name}' (was ${shortOid(oid)})\n`)
        }
      }
      return { stdout: out.join(''), stderr: errors.join(''), exitCode: errors.length ? 1 : 0 }
    }
    if (names.length === 0 || has(parsed, 'list')) {
      const patterns = names.map(globToRegExp)
      const tags = (await git.listTags(r)).filter((name) => patterns.length === 0 || patterns.some((p) => p.test(name))).sort()
      return ok(tags.map((name) => `${name}\n`).join(''))
    }
    if (names.length > 2) return fail('fatal: too many arguments', 128)
    const [name, target = 'HEAD'] = names as [string, string?]
    if (!validBranchName(name)) return fatal(`'${name}' is not a valid tag name.`)
    const oid = await resolveCommitish(ctx, target)
    if (oid === null) {
      const shown = target === 'HEAD' ? ((await currentBranch(ctx)) ?? 'HEAD') : target
      return fatal(target === 'HEAD' ? 'Failed to resolve \'HEAD\' as a valid ref.' : `Failed to resolve '${shown}' as a valid ref.`)
    }
    const exists = (await git.resolveRef({ ...r, ref: `refs/tags/${name}`, depth: 1 }).catch(() => null)) !== null
    if (exists && !has(parsed, 'force')) return fatal(`tag '${name}' already exists`)
    const messages = parsed.flags.get('message')
    if (has(parsed, 'annotate') || messages !== undefined) {
      if (messages === undefined) return fail("error: fxterm's git has no editor to write the tag message in: give it with -m")
      const tagger = await identity(ctx, 'committer')
      await git.annotatedTag({ ...r, ref: name, object: oid, // isomorphic-git ends the message with a newline of its own.
      message: cleanMessage(messages.join('\n\n')).replace(/\n$/, ''), tagger, force: exists })
    } else await git.tag({ ...r, ref: name, object: oid, force: exists })
    return ok()
  },
}
