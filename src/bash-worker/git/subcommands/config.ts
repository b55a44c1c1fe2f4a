/**
 * `git config [--global | --local] (<key> [<value>] | --get <key> | --unset <key> | --list)`.
 * Any key is kept; the ones fxterm reads are user.name, user.email, init.defaultBranch and
 * http.corsProxy. `--global` is $HOME/.gitconfig in the workspace.
 */

import { parseArgs, has } from '../git-args'
import { fail, fatal, ok, unsupported, type GitSubcommand } from '../git-context'
import { allConfig, canonicalKey, configPath, editConfig, parseConfig, readConfigText } from '../repo-config'

const USAGE = 'usage: git config [<options>]'

export const config: GitSubcommand = {
  needsRepo: false,
  async run(args, ctx) {
    const parsed = parseArgs(args, {
      booleans: { '--global': 'global', '--local': 'local', '--get': 'get', '--unset': 'unset', '-l': 'list', '--list': 'list' },
    })
    if (parsed.unknown) return unsupported(`git config ${parsed.unknown}`)
    const scope = has(parsed, 'global') ? 'global' : has(parsed, 'local') ? 'local' : null
    const [key, value, ...rest] = parsed.positional
    if (has(parsed, 'list')) {
      if (key !== undefined) return fail(`error: wrong number of arguments, should be 0\n${USAGE}`, 129)
      if (scope === 'local' && ctx.gitdir === null) return fatal('--local can only be used inside a git repository')
      const entries = scope === null ? await allConfig(ctx) : parseConfig(await readConfigText(ctx, configPath(ctx, scope)))
      return ok(entries.map((e) => `${e.key}=${e.value}\n`).join(''))
    }
    if (key === undefined || rest.length > 0) return fail(USAGE, 129)
    if (!/^[^.\s]+\..+/.test(key) || key.endsWith('.')) {
      return fail(key.includes('.') && !key.endsWith('.') ? `error: invalid key: ${key}` : `error: key does not contain a section: ${key}`)
    }
    const wanted = canonicalKey(key)
    const setting = value !== undefined && !has(parsed, 'get')
    if (!setting && !has(parsed, 'unset')) {
      if (value !== undefined) return unsupported('git config --get <key> <value-pattern>')
      const entries = scope === null ? await allConfig(ctx) : parseConfig(await readConfigText(ctx, configPath(ctx, scope)))
      const found = entries.filter((e) => e.key === wanted).at(-1)
      return found ? ok(`${found.value}\n`) : { stdout: '', stderr: '', exitCode: 1 }
    }
    const path = configPath(ctx, scope ?? 'local')
    if (path === null) return fatal('not in a git directory')
    const edited = editConfig(await readConfigText(ctx, path), key, has(parsed, 'unset') ? null : (value ?? ''))
    if (has(parsed, 'unset') && !edited.found) return { stdout: '', stderr: '', exitCode: 5 }
    await ctx.fs.writeFile(path, edited.text)
    return ok()
  },
}
