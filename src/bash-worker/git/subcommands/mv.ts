/**
 * `git mv [-f] [-k] <source>... <destination>`: moves tracked files or directories and their
 * index entries. The moved file is staged from the work tree (native git moves the index entry
 * as it is; the two differ only for a file with unstaged changes).
 */

import git from 'isomorphic-git'
import { parseArgs, has } from '../git-args'
import { fail, fatal, ok, unsupported, type GitSubcommand } from '../git-context'
import { joinPath } from '../git-paths'
import { repo, repoPath, underPath } from '../repo-head'
import { fileStates } from '../repo-status'

export const mv: GitSubcommand = {
  needsRepo: true,
  async run(args, ctx) {
    const parsed = parseArgs(args, { booleans: { '-f': 'force', '--force': 'force', '-v': 'verbose', '--verbose': 'verbose' } })
    if (parsed.unknown) return unsupported(`git mv ${parsed.unknown}`)
    const paths = [...parsed.positional, ...parsed.paths]
    if (paths.length < 2) return fail('usage: git mv [<options>] <source>... <destination>', 129)
    const r = repo(ctx)
    const destination = paths.at(-1)!
    const destSpec = repoPath(ctx, destination)
    if (destSpec === null) return fatal(`${destination}: '${destination}' is outside repository at '${r.dir}'`)
    const destStat = await ctx.fs.stat(joinPath(r.dir, destSpec)).catch(() => null)
    const intoDir = destStat?.isDirectory === true
    if (paths.length > 2 && !intoDir) return fatal(`destination '${destination}' is not a directory`)
    const cache = {}
    const tracked = (await fileStates(ctx, cache)).filter((s) => s.stage !== undefined)
    const lines: string[] = []
    for (const source of paths.slice(0, -1)) {
      const spec = repoPath(ctx, source)
      const name = source.replace(/\/+$/, '').split('/').at(-1)!
      const where = `source=${source}, destination=${intoDir ? `${destination.replace(/\/+$/, '')}/${name}` : destination}`
      if (spec === null || spec === '') return fatal(`bad source, ${where}`)
      const target = intoDir ? (destSpec === '' ? name : `${destSpec}/${name}`) : destSpec
      if (!(await ctx.fs.exists(joinPath(r.dir, spec)))) return fatal(`bad source, ${where}`)
      const moved = tracked.filter((s) => underPath(s.path, spec))
      if (moved.length === 0) return fatal(`not under version control, ${where}`)
      if (spec === target || underPath(target, spec)) return fatal(`can not move directory into itself, ${where}`)
      const targetExists = await ctx.fs.exists(joinPath(r.dir, target))
      if (targetExists && !has(parsed, 'force')) return fatal(`destination exists, ${where}`)
      if (targetExists) await ctx.fs.rm(joinPath(r.dir, target), { recursive: true })
      await ctx.fs.mv(joinPath(r.dir, spec), joinPath(r.dir, target))
      for (const s of moved) {
        const to = `${target}${s.path.slice(spec.length)}`
        await git.remove({ ...r, filepath: s.path, cache })
        if (s.workdir !== undefined) await git.add({ ...r, filepath: to, cache })
      }
      if (has(parsed, 'verbose')) lines.push(`Renaming ${spec} to ${target}`)
    }
    return ok(lines.map((line) => `${line}\n`).join(''))
  },
}
