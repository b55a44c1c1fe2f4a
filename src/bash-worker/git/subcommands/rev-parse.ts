/**
 * `git rev-parse`: commit ids of revisions (HEAD, branches, tags, short ids, `HEAD~n`), with
 * `--short[=n]`, `--abbrev-ref` and `--verify`, and the repository questions scripts ask:
 * `--show-toplevel`, `--git-dir`, `--is-inside-work-tree`, `--show-prefix`.
 */

import { fail, ok, unsupported, type GitSubcommand } from '../git-context'
import { currentBranch, repoPath, resolveCommitish } from '../repo-head'

const AMBIGUOUS = (name: string) =>
  `fatal: ambiguous argument '${name}': unknown revision or path not in the working tree.\n` +
  "Use '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'"

export const revParse: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    let short: number | null = null
    let abbrevRef = false
    let verify = false
    let quiet = false
    const out: string[] = []
    for (const arg of args) {
      if (arg === '--short') short = 7
      else if (arg.startsWith('--short=')) short = Math.max(4, Number(arg.slice(8)) || 7)
      else if (arg === '--abbrev-ref') abbrevRef = true
      else if (arg === '--verify') verify = true
      else if (arg === '-q' || arg === '--quiet') quiet = true
      else if (arg === '--show-toplevel') out.push(ctx.dir!)
      else if (arg === '--git-dir') out.push(ctx.cwd === ctx.dir ? '.git' : ctx.gitdir!)
      else if (arg === '--is-inside-work-tree') out.push('true')
      else if (arg === '--is-inside-git-dir') out.push('false')
      else if (arg === '--show-prefix') out.push(repoPath(ctx, '.') ? `${repoPath(ctx, '.')}/` : '')
      else if (arg.startsWith('-')) return unsupported(`git rev-parse ${arg}`)
      else {
        const oid = await resolveCommitish(ctx, arg, false)
        if (oid === null) {
          if (verify) return quiet ? { stdout: '', stderr: '', exitCode: 1 } : fail('fatal: Needed a single revision', 128)
          return { stdout: `${out.map((l) => `${l}\n`).join('')}${arg}\n`, stderr: `${AMBIGUOUS(arg)}\n`, exitCode: 128 }
        }
        if (abbrevRef) out.push(arg === 'HEAD' ? ((await currentBranch(ctx)) ?? 'HEAD') : arg)
        else out.push(short === null ? oid : oid.slice(0, short))
      }
    }
    return ok(out.map((line) => `${line}\n`).join(''))
  },
}
