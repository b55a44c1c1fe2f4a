/**
 * `git pull [-q] [--ff-only] [<remote> [<branch>]]`: fetch, then fast-forward the current
 * branch. A branch that has diverged is refused in one line (no merge here); local changes a
 * fast-forward would overwrite stop it before anything moves, as git does.
 */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, ok, unsupported, type GitSubcommand } from '../git-context'
import { diffstat } from '../remote-diffstat'
import { remoteFailure } from '../remote-errors'
import { fetchRemote } from '../remote-fetch'
import { shortRef } from '../remote-report'
import { isOutput, looksLikeUrl, remoteTarget } from '../remote-target'
import { pullGithub } from '../remote-github'
import { parseGithubUrl } from '../github/github-url'

const NO_TRACKING = (branch: string) =>
  `There is no tracking information for the current branch.\nPlease specify which branch you want to merge with.\nSee git-pull(1) for details.\n\n    git pull <remote> <branch>\n\nIf you wish to set tracking information for this branch you can do so with:\n\n    git branch --set-upstream-to=<remote>/<branch> ${branch}\n`

export const pull: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, { booleans: { '-q': 'quiet', '--quiet': 'quiet', '--ff-only': 'ff-only', '--ff': 'ff' } })
    if (parsed.unknown) return unsupported(`git pull ${parsed.unknown}`)
    if (parsed.positional.length > 2) return unsupported('git pull with more than one branch')
    const repo = { fs: ctx.gitFs, dir: ctx.dir! }
    const branch = await git.currentBranch(repo)
    if (branch === undefined) return fail('fatal: You are not currently on a branch.', 128)
    const [givenRemote, givenBranch] = parsed.positional
    if (givenRemote !== undefined && looksLikeUrl(givenRemote)) return unsupported('git pull <url> (add it with git remote add, then pull it by name)')
    const remoteName = givenRemote ?? ((await git.getConfig({ ...repo, path: `branch.${branch}.remote` })) as string | undefined)
    const merge = givenBranch ?? ((await git.getConfig({ ...repo, path: `branch.${branch}.merge` })) as string | undefined)
    if (remoteName === undefined || merge === undefined) return fail(NO_TRACKING(branch), 1)

    const target = await remoteTarget(ctx, remoteName)
    if (isOutput(target)) return target
    const github = parseGithubUrl(target.url)
    if (github) return pullGithub(ctx, github, branch, shortRef(merge))
    let stderr = target.notice
    try {
      const report = await fetchRemote(ctx, { ...target, name: remoteName })
      if (!has(parsed, 'quiet')) stderr += report
    } catch (error) {
      const failure = remoteFailure(error, target.url, ctx.signal)
      return { ...failure, stderr: `${stderr}${failure.stderr}` }
    }
    const upstreamRef = `refs/remotes/${remoteName}/${shortRef(merge)}`
    const theirs = await git.resolveRef({ ...repo, ref: upstreamRef }).catch(() => null)
    if (theirs === null) return fail(`${stderr}fatal: couldn't find remote ref ${shortRef(merge)}`, 1)
    const ours = await git.resolveRef({ ...repo, ref: branch }).catch(() => null)
    const isAncestor = (oid: string, ancestor: string) => git.isDescendent({ ...repo, oid, ancestor, depth: -1 }).catch(() => false)
    if (ours !== null && (ours === theirs || (await isAncestor(ours, theirs)))) return ok(has(parsed, 'quiet') ? '' : 'Already up to date.\n', stderr)
    if (ours !== null && !(await isAncestor(theirs, ours))) {
      return fail(
        `${stderr}fatal: Not possible to fast-forward: ${branch} and ${remoteName}/${shortRef(merge)} have diverged, and fxterm's git pull only fast-forwards (combine them with git merge ${remoteName}/${shortRef(merge)})`,
        1,
      )
    }
    const fullBranch = `refs/heads/${branch}`
    await git.writeRef({ ...repo, ref: fullBranch, value: theirs, force: true })
    try {
      await git.checkout({ ...repo, ref: branch })
    } catch (error) {
      // Nothing of the fast-forward stays when the work tree could not follow it.
      if (ours !== null) await git.writeRef({ ...repo, ref: fullBranch, value: ours, force: true })
      const files = (error as { data?: { filepaths?: string[] } }).data?.filepaths
      if (files?.length) {
        return fail(
          `${stderr}error: Your local changes to the following files would be overwritten by merge:\n${files.map((f) => `\t${f}\n`).join('')}Please commit your changes or stash them before you merge.\nAborting`,
          1,
        )
      }
      throw error
    }
    if (has(parsed, 'quiet') || ours === null) return ok('', stderr)
    const stat = await diffstat(ctx, ours, theirs)
    return ok(`Updating ${ours.slice(0, 7)}..${theirs.slice(0, 7)}\nFast-forward\n${stat}`, stderr)
  },
}
