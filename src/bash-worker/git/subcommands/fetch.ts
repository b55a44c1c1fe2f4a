/** `git fetch [-q] [--all] [--depth <n>] [<remote>]`: a named remote's branches and tags. */

import git from 'isomorphic-git'
import { parseArgs, has, value } from '../git-args'
import { ok, unsupported, type GitSubcommand } from '../git-context'
import { remoteFailure } from '../remote-errors'
import { fetchRemote } from '../remote-fetch'
import { defaultRemote, isOutput, looksLikeUrl, remoteTarget } from '../remote-target'
import { parseGithubUrl } from '../github/github-url'

export const fetchRemotes: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-q': 'quiet', '--quiet': 'quiet', '--all': 'all', '--tags': 'tags', '-t': 'tags' },
      values: { '--depth': 'depth' },
    })
    if (parsed.unknown) return unsupported(`git fetch ${parsed.unknown}`)
    if (parsed.positional.length > 1) return unsupported('git fetch with a refspec')
    const given = parsed.positional[0]
    if (given !== undefined && looksLikeUrl(given)) return unsupported('git fetch <url> (add it with git remote add, then fetch it by name)')
    const names = has(parsed, 'all')
      ? (await git.listRemotes({ fs: ctx.gitFs, dir: ctx.dir! })).map((r) => r.remote)
      : [given ?? (await defaultRemote(ctx))]
    const depth = value(parsed, 'depth') === undefined ? undefined : Number(value(parsed, 'depth'))
    let stdout = ''
    let stderr = ''
    for (const name of names) {
      const target = await remoteTarget(ctx, name)
      if (isOutput(target)) return { ...target, stdout, stderr: `${stderr}${target.stderr}` }
      if (parseGithubUrl(target.url)) return unsupported(`git fetch from GitHub (${name}): git pull brings the branch's new commits through GitHub's API`)
      stderr += target.notice
      if (has(parsed, 'all')) stdout += `Fetching ${name}\n`
      try {
        const report = await fetchRemote(ctx, { ...target, name }, depth)
        if (!has(parsed, 'quiet')) stderr += report
      } catch (error) {
        const failure = remoteFailure(error, target.url, ctx.signal)
        return { ...failure, stdout, stderr: `${stderr}${failure.stderr}` }
      }
    }
    return ok(stdout, stderr)
  },
}
