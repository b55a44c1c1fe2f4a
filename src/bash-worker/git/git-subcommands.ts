/**
 * Bash worker side: every `git` subcommand fxterm's git knows, by name. One file each under
 * subcommands/; a name missing here answers "is not a git command fxterm's git knows".
 */

import type { GitSubcommand } from './git-context'
import { add } from './subcommands/add'
import { branch } from './subcommands/branch'
import { checkout } from './subcommands/checkout'
import { clone } from './subcommands/clone'
import { commit } from './subcommands/commit'
import { config } from './subcommands/config'
import { diff } from './subcommands/diff'
import { fetchRemotes } from './subcommands/fetch'
import { init } from './subcommands/init'
import { log } from './subcommands/log'
import { lsRemote } from './subcommands/ls-remote'
import { merge } from './subcommands/merge'
import { mv } from './subcommands/mv'
import { pull } from './subcommands/pull'
import { push } from './subcommands/push'
import { remote } from './subcommands/remote'
import { reset } from './subcommands/reset'
import { restore } from './subcommands/restore'
import { revParse } from './subcommands/rev-parse'
import { rm } from './subcommands/rm'
import { show } from './subcommands/show'
import { stash } from './subcommands/stash'
import { status } from './subcommands/status'
import { switchCommand } from './subcommands/switch'
import { tag } from './subcommands/tag'

export const GIT_SUBCOMMANDS: Record<string, GitSubcommand> = {
  add,
  branch,
  checkout,
  clone,
  commit,
  config,
  diff,
  fetch: fetchRemotes,
  init,
  log,
  'ls-remote': lsRemote,
  merge,
  mv,
  pull,
  push,
  remote,
  reset,
  restore,
  'rev-parse': revParse,
  rm,
  show,
  stash,
  status,
  switch: switchCommand,
  tag,
}
