/**
 * The run_command tool description for the bash workspace: what the model can count on, what
 * it should not try, and that the files do not outlive the page. It must stay under 900
 * characters (it is sent with every request) and name only commands just-bash 3.4.2 really has
 * (tool-description.test.ts checks both against `getCommandNames()`).
 */

/** The commands the description names, grouped as it lists them. */
export const DESCRIBED_COMMANDS: readonly (readonly string[])[] = [
  ['ls', 'cat', 'cp', 'mv', 'rm', 'mkdir', 'touch', 'ln', 'chmod', 'stat', 'tree', 'du'],
  ['grep', 'rg', 'sed', 'awk', 'cut', 'tr', 'find', 'xargs', 'jq'],
  ['diff', 'comm', 'sort', 'uniq', 'wc', 'head', 'tail', 'tee', 'tac', 'column'],
  ['seq', 'printf', 'date', 'base64', 'sha256sum', 'md5sum'],
]

/** The run_command description for createBashWorkspace's workspace. */
export const RUN_COMMAND_DESCRIPTION = [
  "Runs a command in fxterm's bash, a JavaScript emulator (just-bash) inside this browser tab.",
  'The directory and variables carry over between calls, like one shell session.',
  'To read, create or change a file, use read_file, write_file and edit_file instead: the user sees each change as a diff and can /undo it.',
  `Has: pipes, redirection, here-docs, loops, functions, $(...); ${DESCRIBED_COMMANDS.map((group) => group.join(' ')).join('; ')}.`,
  'Not available: network (no curl or wget), git, node, python, package managers (npm, pip, apt), compilers, background jobs, gzip or tar.',
  'Files are in memory and last only as long as the page: a reload loses them. The user can drop files in and /download a zip.',
  'Output over 64 KiB is cut; commands time out after at most 30 s.',
].join('\n')
