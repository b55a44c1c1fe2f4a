/**
 * Bash worker side: every `git` subcommand fxterm's git knows, by name. One file each under
 * subcommands/; a name missing here answers "is not a git command fxterm's git knows".
 */

import type { GitSubcommand } from './git-context'
import { init } from './subcommands/init'
// git-b: history-moving and diffing subcommands.
import { checkout } from './subcommands/checkout'
import { diff } from './subcommands/diff'
import { merge } from './subcommands/merge'
import { reset } from './subcommands/reset'
import { restore } from './subcommands/restore'
import { show } from './subcommands/show'
import { stash } from './subcommands/stash'
import { switchCommand } from './subcommands/switch'

export const GIT_SUBCOMMANDS: Record<string, GitSubcommand> = {
  init,
  // git-b
  checkout,
  diff,
  merge,
  reset,
  restore,
  show,
  stash,
  switch: switchCommand,
}
