/**
 * Bash worker side: every `git` subcommand fxterm's git knows, by name. One file each under
 * subcommands/; a name missing here answers "is not a git command fxterm's git knows".
 */

import type { GitSubcommand } from './git-context'
import { add } from './subcommands/add'
import { branch } from './subcommands/branch'
import { commit } from './subcommands/commit'
import { config } from './subcommands/config'
import { init } from './subcommands/init'
import { log } from './subcommands/log'
import { mv } from './subcommands/mv'
import { revParse } from './subcommands/rev-parse'
import { rm } from './subcommands/rm'
import { status } from './subcommands/status'
import { tag } from './subcommands/tag'

export const GIT_SUBCOMMANDS: Record<string, GitSubcommand> = {
  add,
  branch,
  commit,
  config,
  init,
  log,
  mv,
  'rev-parse': revParse,
  rm,
  status,
  tag,
}
