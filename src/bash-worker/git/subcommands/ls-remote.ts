/** `git ls-remote [--heads] [--tags] [--refs] [-q] [<remote> [<pattern>...]]`: a server's refs. */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, ok, unsupported, type GitSubcommand } from '../git-context'
import { remoteFailure } from '../remote-errors'
import { defaultRemote, isOutput, remoteTarget } from '../remote-target'

function matches(ref: string, patterns: string[]): boolean {
  return patterns.length === 0 || patterns.some((p) => ref === p || ref.endsWith(`/${p}`))
}

export const lsRemote: GitSubcommand = {
  needsRepo: false,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: {
        '--heads': 'heads',
        '-h': 'heads',
        '--tags': 'tags',
        '-t': 'tags',
        '--refs': 'refs',
        '-q': 'quiet',
        '--quiet': 'quiet',
        '--exit-code': 'exit-code',
      },
    })
    if (parsed.unknown) return unsupported(`git ls-remote ${parsed.unknown}`)
    const [given, ...patterns] = parsed.positional
    if (given === undefined && ctx.dir === null) return fail('fatal: No remote configured to list refs from.', 128)
    const target = await remoteTarget(ctx, given ?? (await defaultRemote(ctx)))
    if (isOutput(target)) return target
    let refs: Awaited<ReturnType<typeof git.listServerRefs>>
    try {
      refs = await git.listServerRefs({ http: target.http, url: target.url, corsProxy: '', protocolVersion: 1, peelTags: true })
    } catch (error) {
      const failure = remoteFailure(error, target.url, ctx.signal)
      return { ...failure, stderr: `${target.notice}${failure.stderr}` }
    }
    const heads = has(parsed, 'heads')
    const tags = has(parsed, 'tags')
    const lines: string[] = []
    for (const ref of refs) {
      const kind = ref.ref.startsWith('refs/heads/') ? 'heads' : ref.ref.startsWith('refs/tags/') ? 'tags' : 'other'
      if ((heads || tags) && !((heads && kind === 'heads') || (tags && kind === 'tags'))) continue
      if (has(parsed, 'refs') && (ref.ref === 'HEAD' || kind === 'other')) continue
      if (!matches(ref.ref, patterns)) continue
      lines.push(`${ref.oid}\t${ref.ref}\n`)
      if (ref.peeled && !has(parsed, 'refs')) lines.push(`${ref.peeled}\t${ref.ref}^{}\n`)
    }
    const notice = target.notice
    if (lines.length === 0 && has(parsed, 'exit-code')) return { stdout: '', stderr: notice, exitCode: 2 }
    return ok(has(parsed, 'quiet') ? '' : lines.join(''), notice)
  },
}
