/**
 * The run_command tool description for the bash workspace: what the model can count on, what
 * it should not try, and whether the files outlive the page. It must stay under 1,500 characters
 * (it is sent with every request; node, python3 and git need their lines) and name only commands the shell really has
 * (tool-description.test.ts checks both against just-bash's `getCommandNames()`).
 */

/** The commands the description names, grouped as it lists them. */
export const DESCRIBED_COMMANDS: readonly (readonly string[])[] = [
  ['ls', 'cat', 'cp', 'mv', 'rm', 'mkdir', 'touch', 'ln', 'chmod', 'stat', 'tree', 'du'],
  ['grep', 'rg', 'sed', 'awk', 'cut', 'tr', 'find', 'xargs', 'jq'],
  ['diff', 'comm', 'sort', 'uniq', 'wc', 'head', 'tail', 'tee', 'tac', 'column'],
  ['seq', 'printf', 'date', 'base64', 'sha256sum', 'md5sum'],
]

export type DescriptionFacts = {
  /** `node`, `python3` and `npm` scripts run (a page's sandbox lends them). */
  runsCode: boolean
  /** The files are kept with the session, across reloads. */
  persists: boolean
}

/**
 * The git subcommands the description names (tool-description.test.ts checks each is in
 * git/git-subcommands.ts; that registry is not imported here, as it would bring isomorphic-git
 * into the page's bundle).
 */
export const DESCRIBED_GIT: readonly string[] = [
  'init', 'status', 'add', 'rm', 'mv', 'commit', 'log', 'diff', 'show', 'branch', 'switch', 'checkout',
  'restore', 'reset', 'stash', 'merge', 'tag', 'config', 'clone', 'fetch', 'pull', 'push', 'remote',
]

const GIT =
  `git runs here (isomorphic-git): ${DESCRIBED_GIT.join(' ')}. clone/fetch/pull/push use HTTPS: github.com repositories work through GitHub's API; other servers must allow browser pages or need git config --global http.corsProxy <url>. The user approves every push; gh pr create opens a pull request.`

const RUNS_CODE =
  'node runs files, -e and --test (fs, path, assert, node:test, util, events, process; no http, net or child_process); npm runs package.json scripts. python3 is CPython with its standard library; pip cannot install. Neither reaches the network.'

/** The run_command description for createBashWorkspace's workspace. */
export function runCommandDescription(facts: DescriptionFacts): string {
  return [
    "Runs a command in fxterm's bash, a JavaScript emulator (just-bash) inside this browser tab.",
    'The directory and variables carry over between calls, like one shell session.',
    'To read, create or change a file, use read_file, write_file and edit_file instead: the user sees each change as a diff and can /undo it.',
    `Has: pipes, redirection, here-docs, loops, functions, $(...); ${DESCRIBED_COMMANDS.map((group) => group.join(' ')).join('; ')}.`,
    GIT,
    ...(facts.runsCode ? [RUNS_CODE] : []),
    facts.runsCode
      ? 'Not available: network other than git (no curl or wget), package downloads, compilers, background jobs, gzip or tar.'
      : 'Not available: network other than git (no curl or wget), node, python, package managers (npm, pip, apt), compilers, background jobs, gzip or tar.',
    facts.persists
      ? 'Files are kept with the session: a reload brings them back. The user can drop files in and /download a zip.'
      : 'Files are in memory and last only as long as the page: a reload loses them. The user can drop files in and /download a zip.',
    'Output over 64 KiB is cut; commands time out after at most 30 s.',
  ].join('\n')
}
