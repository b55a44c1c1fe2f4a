/**
 * Bash worker side: `git push` to GitHub through its Git Database API. Blobs and trees GitHub
 * lacks are created (bottom-up, full trees), then each commit with the same author, committer,
 * dates and message, so GitHub's ids equal the local ones (checked; a difference is reported
 * and GitHub's id is used from then on). The branch moves last and only as a fast-forward, so a
 * failure part-way leaves the remote's branch as it was.
 */

import git from 'isomorphic-git'
import { gitFs } from '../git-fs'
import { GithubError, githubApi, type GithubApi } from './github-api'
import { newCommitBody, rebuildCommit, type ApiCommit } from './github-commit-text'
import { localObjects } from './github-objects'
import { planGithubPush, type GithubPushOptions, type GithubPushPlan } from './github-push-plan'

/** A push's outcome: git's lines, its exit code, and commits GitHub stored under other ids. */
export type GithubPushResult = {
  plan: GithubPushPlan
  /** 0 when the branch moved or was up to date, 1 when git would refuse. */
  exitCode: number
  /** What git prints (on stderr) for the push. */
  output: string
  /** Local commits whose GitHub id differs, with GitHub's id (empty when all ids match). */
  mismatched: Array<{ local: string; github: string }>
}

type Fsp = ReturnType<typeof gitFs>

/** git's column of 17 characters before `src -> dst`. */
function refLine(flag: string, summary: string, plan: GithubPushPlan, reason = ''): string {
  return ` ${flag} ${summary.padEnd(17)} ${plan.branch} -> ${plan.remoteBranch}${reason ? ` (${reason})` : ''}\n`
}

/** Every tree and blob id `tree` reaches, added to `known`. */
async function collectTree(fsp: Fsp, dir: string, tree: string, known: Set<string>): Promise<void> {
  if (known.has(tree)) return
  known.add(tree)
  const { tree: entries } = await git.readTree({ fs: fsp, dir, oid: tree })
  for (const e of entries) {
    if (e.type === 'tree') await collectTree(fsp, dir, e.oid, known)
    else known.add(e.oid)
  }
}

function base64(bytes: Uint8Array): string {
  let text = ''
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(text)
}

/** Makes sure GitHub has `tree` and all it reaches, creating what `known` lacks. */
async function sendTree(api: GithubApi, fsp: Fsp, dir: string, tree: string, known: Set<string>): Promise<void> {
  if (known.has(tree)) return
  const { tree: entries } = await git.readTree({ fs: fsp, dir, oid: tree })
  for (const e of entries) {
    if (e.type === 'commit') throw new GithubError('GITHUB_REFUSED', `submodules are not supported ('${e.path}' is one); nothing was pushed`)
    if (e.type === 'tree') await sendTree(api, fsp, dir, e.oid, known)
    else if (!known.has(e.oid)) {
      const { blob } = await git.readBlob({ fs: fsp, dir, oid: e.oid })
      const { sha } = await api.post<{ sha: string }>('/git/blobs', { content: base64(blob), encoding: 'base64' })
      if (sha !== e.oid) throw new GithubError('GITHUB_REFUSED', `GitHub stored file ${e.path} as ${sha.slice(0, 7)}, not ${e.oid.slice(0, 7)}; nothing was pushed`)
      known.add(sha)
    }
  }
  const body = { tree: entries.map((e) => ({ path: e.path, mode: e.mode.padStart(6, '0'), type: e.type, sha: e.oid })) }
  const { sha } = await api.post<{ sha: string }>('/git/trees', body)
  if (sha !== tree) throw new GithubError('GITHUB_REFUSED', `GitHub stored tree ${tree.slice(0, 7)} as ${sha.slice(0, 7)}; nothing was pushed`)
  known.add(tree)
}

/** Writes GitHub's versions of the mismatched commits locally; false when one cannot be rebuilt. */
async function recordGithubCommits(api: GithubApi, fsp: Fsp, dir: string, mismatched: GithubPushResult['mismatched']): Promise<boolean> {
  const store = localObjects(fsp, `${dir}/.git`)
  for (const { github } of mismatched) {
    const text = await rebuildCommit(await api.get<ApiCommit>(`/git/commits/${github}`))
    if (!text || (await store.write('commit', text)) !== github) return false
  }
  return true
}

/** Pushes as planned (planning first when no plan is given); GitHub's refusals throw a GithubError. */
export async function pushToGithub(options: GithubPushOptions, planned?: GithubPushPlan): Promise<GithubPushResult> {
  const plan = planned ?? (await planGithubPush(options))
  const { fs, dir } = options
  const head = `To ${plan.remote}\n`
  const result = (exitCode: number, output: string, mismatched: GithubPushResult['mismatched'] = []) => ({ plan, exitCode, output, mismatched })
  const refused = (reason: string) =>
    result(1, `${head}${refLine('!', '[rejected]', plan, reason)}error: failed to push some refs to '${plan.remote}'\n`)
  if (plan.rejected) return refused(plan.rejected)
  if (plan.remoteSha === plan.localSha) return result(0, 'Everything up-to-date\n')

  const fsp = gitFs(fs)
  const api = githubApi(options.fetch, options.repo, options.signal)
  const pushing = new Set(plan.commits.map((c) => c.oid))
  // What GitHub has: the trees of the commits the new ones stand on.
  const known = new Set<string>()
  for (const { oid } of plan.commits) {
    const { commit } = await git.readCommit({ fs: fsp, dir, oid })
    for (const parent of commit.parent) {
      if (pushing.has(parent)) continue
      const base = await git.readCommit({ fs: fsp, dir, oid: parent }).catch(() => null)
      if (base) await collectTree(fsp, dir, base.commit.tree, known)
    }
  }
  const githubId = new Map<string, string>()
  const mismatched: GithubPushResult['mismatched'] = []
  for (const { oid } of plan.commits) {
    const { object } = await git.readObject({ fs: fsp, dir, oid, format: 'content' })
    const body = newCommitBody(new TextDecoder().decode(object as Uint8Array))
    if (!body) throw new GithubError('GITHUB_REFUSED', `commit ${oid.slice(0, 7)} has a header GitHub's API cannot take (encoding or mergetag); nothing was pushed`)
    await sendTree(api, fsp, dir, body.tree, known)
    body.parents = body.parents.map((p) => githubId.get(p) ?? p)
    const { sha } = await api.post<{ sha: string }>('/git/commits', body)
    if (sha !== oid) {
      githubId.set(oid, sha)
      mismatched.push({ local: oid, github: sha })
    }
  }

  const target = githubId.get(plan.localSha) ?? plan.localSha
  const path = `/git/refs/heads/${plan.remoteBranch.split('/').map(encodeURIComponent).join('/')}`
  try {
    if (plan.remoteSha) await api.patch(path, { sha: target, force: false })
    else await api.post('/git/refs', { ref: `refs/heads/${plan.remoteBranch}`, sha: target })
  } catch (error) {
    // The branch moved on GitHub since the plan was made.
    if (error instanceof GithubError && error.code === 'GITHUB_UNPROCESSABLE') return refused('fetch first')
    throw error
  }
  // origin/B must name what GitHub has: when GitHub's ids differ, its commits are brought in
  // (their trees are the local ones) so origin/B can name them and `git status` tells the truth.
  const recorded = mismatched.length === 0 || (await recordGithubCommits(api, fsp, dir, mismatched))
  if (recorded) await git.writeRef({ fs: fsp, dir, ref: `refs/remotes/origin/${plan.remoteBranch}`, value: target, force: true })
  const summary = plan.remoteSha ? refLine(' ', `${plan.remoteSha.slice(0, 7)}..${target.slice(0, 7)}`, plan) : refLine('*', '[new branch]', plan)
  const note = mismatched
    .map((m) => `warning: GitHub stored commit ${m.local.slice(0, 7)} as ${m.github.slice(0, 7)} (it changed the commit); origin/${plan.remoteBranch} names GitHub's\n`)
    .join('')
  return result(0, `${head}${summary}${note}`, mismatched)
}
