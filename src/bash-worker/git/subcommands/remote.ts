/**
 * `git remote [-v]`, `git remote add <name> <url>`, `remove|rm <name>`, `get-url <name>`,
 * `set-url <name> <url>`: the remotes in .git/config, with git's messages and exit codes.
 * A URL with credentials in it is refused here too, so none is ever written to the config.
 */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, ok, unsupported, type GitContext, type GitOutput, type GitSubcommand } from '../git-context'
import { refuseRemoteUrl } from '../remote-url'

type Repo = { fs: GitContext['gitFs']; dir: string }

/** git's check-ref-format for a remote's name, in short: no spaces, no `..`, no control chars. */
function validName(name: string): boolean {
  return name !== '' && !/[\s~^:?*[\\\x00-\x1f\x7f]|\.\.|@\{|^[-.]|\/$|\.lock$|\.$/.test(name)
}

async function remotes(repo: Repo): Promise<Array<{ remote: string; url: string }>> {
  return git.listRemotes(repo)
}

async function urlOf(repo: Repo, name: string, push: boolean): Promise<string | undefined> {
  const pushUrl = push ? ((await git.getConfig({ ...repo, path: `remote.${name}.pushurl` })) as string | undefined) : undefined
  return pushUrl ?? ((await git.getConfig({ ...repo, path: `remote.${name}.url` })) as string | undefined)
}

function credentialRefusal(url: string): GitOutput | null {
  const refusal = refuseRemoteUrl(url)
  return refusal !== null && refusal.includes('credentials in the URL') ? fail(refusal, 128) : null
}

async function remove(ctx: GitContext, repo: Repo, name: string): Promise<GitOutput> {
  if ((await urlOf(repo, name, false)) === undefined) return fail(`error: No such remote: '${name}'`, 2)
  for (const branch of await git.listBranches({ ...repo, remote: name })) {
    await git.deleteRef({ ...repo, ref: `refs/remotes/${name}/${branch}` }).catch(() => {})
  }
  await ctx.fs.rm(`${ctx.gitdir}/refs/remotes/${name}`, { recursive: true, force: true })
  for (const branch of await git.listBranches(repo)) {
    if ((await git.getConfig({ ...repo, path: `branch.${branch}.remote` })) === name) {
      await git.setConfig({ ...repo, path: `branch.${branch}.remote`, value: undefined })
      await git.setConfig({ ...repo, path: `branch.${branch}.merge`, value: undefined })
    }
  }
  await git.deleteRemote({ ...repo, remote: name })
  return ok()
}

export const remote: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const repo: Repo = { fs: ctx.gitFs, dir: ctx.dir! }
    const [action, ...rest] = args
    if (action === undefined || action === '-v' || action === '--verbose') {
      const lines = (await remotes(repo)).map(({ remote: name }) => name)
      if (action === undefined) return ok(lines.map((name) => `${name}\n`).join(''))
      let out = ''
      for (const name of lines) out += `${name}\t${await urlOf(repo, name, false)} (fetch)\n${name}\t${await urlOf(repo, name, true)} (push)\n`
      return ok(out)
    }
    const parsed = parseArgs(rest, { booleans: { '--push': 'push' } })
    if (parsed.unknown) return unsupported(`git remote ${action} ${parsed.unknown}`)
    const [name, url, extra] = parsed.positional
    const usage = (shape: string) => fail(`usage: git remote ${action} ${shape}`, 129)
    switch (action) {
      case 'add': {
        if (name === undefined || url === undefined || extra !== undefined) return usage('<name> <url>')
        if (!validName(name)) return fail(`fatal: '${name}' is not a valid remote name`, 128)
        if ((await urlOf(repo, name, false)) !== undefined) return fail(`error: remote ${name} already exists.`, 3)
        const refused = credentialRefusal(url)
        if (refused) return refused
        await git.addRemote({ ...repo, remote: name, url })
        return ok()
      }
      case 'remove':
      case 'rm':
        if (name === undefined || url !== undefined) return usage('<name>')
        return remove(ctx, repo, name)
      case 'get-url': {
        if (name === undefined || url !== undefined) return usage('[--push] <name>')
        const found = await urlOf(repo, name, has(parsed, 'push'))
        return found === undefined ? fail(`error: No such remote '${name}'`, 2) : ok(`${found}\n`)
      }
      case 'set-url': {
        if (name === undefined || url === undefined || extra !== undefined) return usage('[--push] <name> <newurl>')
        if ((await urlOf(repo, name, false)) === undefined) return fail(`error: No such remote '${name}'`, 2)
        const refused = credentialRefusal(url)
        if (refused) return refused
        await git.setConfig({ ...repo, path: `remote.${name}.${has(parsed, 'push') ? 'pushurl' : 'url'}`, value: url })
        return ok()
      }
      default:
        return unsupported(`git remote ${action}`)
    }
  },
}
