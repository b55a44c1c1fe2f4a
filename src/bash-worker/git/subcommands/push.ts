/**
 * `git push [-u] [-f] [-q] [<remote> [[+]<src>[:<dst>]]]`: one branch (or tag) at a time. As
 * git does, a push that is not a fast-forward is refused unless forced: "fetch first" when
 * the remote has commits this repository has never seen, "non-fast-forward" when it has seen
 * them and would lose them. The server applies a push whole or not at all, so a push cut
 * mid-way leaves the remote as it was.
 */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, ok, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { remoteFailure } from '../remote-errors'
import { refLine, shortRef, updateLine } from '../remote-report'
import { defaultRemote, isOutput, remoteTarget } from '../remote-target'
import { declined, pushGithub } from '../remote-github'
import { parseGithubUrl } from '../github/github-url'
import { commitsToSend } from '../remote-push-commits'

const ZERO = '0000000000000000000000000000000000000000'

const HINTS = {
  'fetch first':
    'hint: Updates were rejected because the remote contains work that you do\nhint: not have locally. This is usually caused by another repository pushing\nhint: to the same ref. You may want to first integrate the remote changes\nhint: (e.g., \'git pull ...\') before pushing again.\n',
  'non-fast-forward':
    "hint: Updates were rejected because the tip of your current branch is behind\nhint: its remote counterpart. Integrate the remote changes (e.g.\nhint: 'git pull ...') before pushing again.\n",
} as const

type Plan = { remote: string; src: string; dst: string; force: boolean }

/** What to push where: from the arguments, else the current branch to its upstream. */
async function plan(ctx: GitContext, positional: string[], force: boolean, setUpstream: boolean): Promise<Plan | GitOutput> {
  const repo = { fs: ctx.gitFs, dir: ctx.dir! }
  const branch = await git.currentBranch(repo)
  const remote = positional[0] ?? (await defaultRemote(ctx))
  let spec = positional[1]
  if (spec === undefined) {
    if (branch === undefined) return fail('fatal: You are not currently on a branch.\nTo push the history leading to the current (detached HEAD)\nstate now, use\n\n    git push ' + remote + ' HEAD:<name-of-remote-branch>\n', 128)
    const upstreamRemote = await git.getConfig({ ...repo, path: `branch.${branch}.remote` })
    const merge = (await git.getConfig({ ...repo, path: `branch.${branch}.merge` })) as string | undefined
    if (upstreamRemote === remote && merge !== undefined) spec = `${branch}:${shortRef(merge)}`
    else if (setUpstream) spec = branch
    else {
      return fail(
        `fatal: The current branch ${branch} has no upstream branch.\nTo push the current branch and set the remote as upstream, use\n\n    git push --set-upstream ${remote} ${branch}\n`,
        128,
      )
    }
  }
  const plus = spec.startsWith('+')
  const [rawSrc, rawDst] = (plus ? spec.slice(1) : spec).split(':') as [string, string | undefined]
  const src = rawSrc === 'HEAD' && branch !== undefined ? branch : rawSrc
  return { remote, src, dst: rawDst ?? src, force: force || plus }
}

export const push: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-u': 'upstream', '--set-upstream': 'upstream', '-f': 'force', '--force': 'force', '-q': 'quiet', '--quiet': 'quiet' },
    })
    if (parsed.unknown) return unsupported(`git push ${parsed.unknown}`)
    if (parsed.positional.length > 2) return unsupported('git push with more than one refspec')
    const planned = await plan(ctx, parsed.positional, has(parsed, 'force'), has(parsed, 'upstream'))
    if ('exitCode' in planned) return planned
    const target = await remoteTarget(ctx, planned.remote, true)
    if (isOutput(target)) return target
    const github = parseGithubUrl(target.url)
    if (github) {
      if (planned.force) return unsupported('git push --force to GitHub')
      return pushGithub(ctx, target.name ?? target.url, github, planned.src, shortRef(planned.dst))
    }
    const repo = { fs: ctx.gitFs, dir: ctx.dir! }
    const fullSrc = await git.expandRef({ ...repo, ref: planned.src }).catch(() => null)
    if (fullSrc === null) return fail(`error: src refspec ${planned.src} does not match any\nerror: failed to push some refs to '${target.url}'`, 1)
    const to = `To ${target.url}\n`
    const from = shortRef(fullSrc)
    // isomorphic-git names a URL push's remote `origin` and moves origin's tracking ref; git
    // moves none for a URL, so that ref is put back afterwards.
    const tracking = `refs/remotes/origin/${shortRef(planned.dst)}`
    const trackingBefore = target.name ? null : await git.resolveRef({ ...repo, ref: tracking }).catch(() => undefined)
    let seen: { old: string; oid: string; ref: string } | null = null
    let refusal: 'fetch first' | null = null
    let personSaidNo = false
    try {
      await git.push({
        ...repo,
        http: target.http,
        ...(target.name ? { remote: target.name } : { url: target.url }),
        ref: fullSrc,
        // A tag goes to refs/tags/ (isomorphic-git would take an unknown short name for a branch).
        remoteRef: fullSrc.startsWith('refs/tags/') && !planned.dst.startsWith('refs/') ? `refs/tags/${planned.dst}` : planned.dst,
        force: planned.force,
        corsProxy: '',
        // Learns what the remote has (to refuse as git does when it has commits we lack), then
        // asks the person before anything is sent.
        onPrePush: async ({ localRef, remoteRef }) => {
          seen = { old: remoteRef.oid, oid: localRef.oid, ref: remoteRef.ref }
          if (remoteRef.oid === localRef.oid) return true
          if (!planned.force && remoteRef.oid !== ZERO) {
            const known = await git.readObject({ ...repo, oid: remoteRef.oid, format: 'deflated' }).then(() => true, () => false)
            if (!known) {
              refusal = 'fetch first'
              return false
            }
          }
          const commits = await commitsToSend(ctx, localRef.oid, remoteRef.oid)
          const asked = { remote: target.name ?? target.url, url: target.url, branch: shortRef(remoteRef.ref), newBranch: remoteRef.oid === ZERO, commits, action: 'push' as const }
          if (ctx.host && (await ctx.host.approvePush(asked))) return true
          personSaidNo = true
          return false
        },
      })
    } catch (error) {
      if (personSaidNo) return { ...declined(target.url), stderr: `${target.notice}${declined(target.url).stderr}` }
      const code = (error as { code?: string }).code
      const reason = refusal ?? (code === 'PushRejectedError' ? 'non-fast-forward' : null)
      if (reason !== null) {
        const dst = shortRef(planned.dst)
        const lines = `${to}${refLine('!', '[rejected]', from, dst, reason)}error: failed to push some refs to '${target.url}'\n`
        return fail(`${target.notice}${lines}${HINTS[reason]}hint: See the 'Note about fast-forwards' in 'git push --help' for details.\n`, 1)
      }
      const failure = remoteFailure(error, target.url, ctx.signal)
      return { ...failure, stderr: `${target.notice}${failure.stderr}` }
    }
    if (trackingBefore === undefined) await git.deleteRef({ ...repo, ref: tracking }).catch(() => {})
    else if (trackingBefore !== null) await git.writeRef({ ...repo, ref: tracking, value: trackingBefore, force: true })
    const result = seen as { old: string; oid: string; ref: string } | null
    let stdout = ''
    if (has(parsed, 'upstream') && fullSrc.startsWith('refs/heads/') && target.name) {
      const branch = shortRef(fullSrc)
      await git.setConfig({ ...repo, path: `branch.${branch}.remote`, value: target.name })
      await git.setConfig({ ...repo, path: `branch.${branch}.merge`, value: result?.ref ?? `refs/heads/${planned.dst}` })
      stdout = `branch '${branch}' set up to track '${target.name}/${shortRef(result?.ref ?? planned.dst)}'.\n`
    }
    if (result === null || result.old === result.oid) return ok(stdout, `${target.notice}Everything up-to-date\n`)
    if (has(parsed, 'quiet')) return ok(stdout, target.notice)
    const kind = result.ref.startsWith('refs/tags/') ? 'tag' : 'branch'
    const forced =
      planned.force && result.old !== ZERO && !(await git.isDescendent({ ...repo, oid: result.oid, ancestor: result.old, depth: -1 }).catch(() => false))
    return ok(stdout, `${target.notice}${to}${updateLine(result.old, result.oid, from, shortRef(result.ref), forced, kind)}`)
  },
}
