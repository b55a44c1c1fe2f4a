/**
 * `git clone [-q] [-b <branch>] [--depth <n>] [--single-branch] <url> [<directory>]`, over
 * http(s) only. The work is in remote-clone.ts (scratch first, then into the workspace).
 */

import { parseArgs, has, value } from '../git-args'
import { fail, ok, unsupported, type GitSubcommand } from '../git-context'
import { cloneRepository } from '../remote-clone'
import { corsProxyOf, proxyNotice, refuseProxy } from '../remote-config'
import { remoteFailure } from '../remote-errors'
import { cloneDirectoryName, refuseRemoteUrl } from '../remote-url'
import { cloneGithub } from '../remote-github'
import { lfsWarning } from '../repo-errors'
import { parseGithubUrl } from '../github/github-url'

export const clone: GitSubcommand = {
  needsRepo: false,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '-q': 'quiet', '--quiet': 'quiet', '--single-branch': 'single' },
      values: { '-b': 'branch', '--branch': 'branch', '--depth': 'depth' },
    })
    if (parsed.unknown) return unsupported(`git clone ${parsed.unknown}`)
    const [url, directory, extra] = [...parsed.positional, ...parsed.paths]
    if (url === undefined) return fail('fatal: You must specify a repository to clone.', 129)
    if (extra !== undefined) return fail('fatal: Too many arguments.', 129)
    const refusal = refuseRemoteUrl(url)
    if (refusal) return fail(refusal, 128)
    const depthText = value(parsed, 'depth')
    const depth = depthText === undefined ? undefined : Number(depthText)
    if (depth !== undefined && !(Number.isInteger(depth) && depth > 0)) return fail(`fatal: depth ${depthText} is not a positive number`, 128)

    const name = directory ?? cloneDirectoryName(url)
    const target = ctx.fs.resolvePath(ctx.cwd, name)
    const existing = await ctx.fs.stat(target).catch(() => null)
    if (existing && (!existing.isDirectory || (await ctx.fs.readdir(target)).length > 0)) {
      return fail(`fatal: destination path '${name}' already exists and is not an empty directory.`, 128)
    }
    const github = parseGithubUrl(url)
    const branchGiven = value(parsed, 'branch')
    // GitHub's git endpoints refuse browser pages; its REST API does not (remote-github.ts).
    if (github) return cloneGithub(ctx, github, target, branchGiven, has(parsed, 'quiet') ? '' : `Cloning into '${name}'...\n`)
    const proxy = await corsProxyOf(ctx, null)
    const badProxy = proxy === null ? null : refuseProxy(proxy)
    if (badProxy) return fail(badProxy, 128)

    const quiet = has(parsed, 'quiet')
    const notice = proxy === null ? '' : proxyNotice(ctx, proxy)
    const cloning = `${notice}${quiet ? '' : `Cloning into '${name}'...\n`}`
    const branch = value(parsed, 'branch')
    try {
      const outcome = await cloneRepository(ctx.fs, {
        url,
        target,
        proxy,
        ...(branch !== undefined ? { branch } : {}),
        ...(depth !== undefined ? { depth } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      })
      const attributes = await ctx.fs.readFile(`${target}/.gitattributes`).catch(() => null)
      const warning = (outcome.empty ? 'warning: You appear to have cloned an empty repository.\n' : '') + lfsWarning(attributes)
      return ok('', `${cloning}${warning}`)
    } catch (error) {
      const code = (error as { code?: string }).code
      const failure =
        branch !== undefined && code === 'NotFoundError'
          ? fail(`fatal: Remote branch ${branch} not found in upstream origin`, 128)
          : remoteFailure(error, url, ctx.signal)
      return { ...failure, stderr: `${cloning}${failure.stderr}` }
    }
  },
}
