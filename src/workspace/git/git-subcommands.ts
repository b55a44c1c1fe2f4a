/**
 * Bash worker side: every `git` subcommand fxterm's git knows, by name. One file each under
 * subcommands/; a name missing here answers "is not a git command fxterm's git knows".
 */

import type { GitSubcommand } from './git-context'
import { init } from './subcommands/init'
// The network side: clone, fetch, ls-remote, pull, push, remote.
import { clone } from './subcommands/clone'
import { fetchRemotes } from './subcommands/fetch'
import { lsRemote } from './subcommands/ls-remote'
import { pull } from './subcommands/pull'
import { push } from './subcommands/push'
import { remote } from './subcommands/remote'

export const GIT_SUBCOMMANDS: Record<string, GitSubcommand> = {
  init,
  // The network side.
  clone,
  fetch: fetchRemotes,
  'ls-remote': lsRemote,
  pull,
  push,
  remote,
}
