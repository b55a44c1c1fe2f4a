/**
 * What carries over from one command to the next, the way it would in one shell session: the
 * working directory and the variables. Both are read from the `env` that just-bash returns with
 * every exec result (its `PWD` and variables after the script), never by running anything else,
 * so a command with side effects runs exactly once.
 *
 * Every variable carries over, exported or not: just-bash's result env does not say which were
 * exported, and its commands (`printenv`, `bash -c`) see all of them anyway. In a real session
 * unexported variables persist too, so this is the session's behaviour, not a superset of it.
 */

/**
 * Entries of the result env that are not carried: `?` and `PWD` describe the finished command
 * (the cwd travels separately, through the engine), SHELLOPTS/BASHOPTS mirror shell options
 * that just-bash resets for every exec, so carrying them would make them lie, and FXTERM_TTY
 * says where that command's output went (the person's terminal), not where the next one's goes.
 */
const NOT_CARRIED = new Set(['?', 'PWD', 'SHELLOPTS', 'BASHOPTS', 'FXTERM_TTY'])

/** The variables to start the next command with, from a result's env. */
export function carriedVars(env: Record<string, string>): Record<string, string> {
  const vars: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (!NOT_CARRIED.has(name)) vars[name] = value
  }
  return vars
}

/**
 * The complete env to run a command with (just-bash's `replaceEnv`, so that a variable the
 * previous command unset stays unset): the carried variables, the shell's own option mirrors
 * from `base` (a fresh shell's env), and PWD for the directory the command starts in.
 */
export function commandEnv(
  vars: Record<string, string>,
  base: Record<string, string>,
  cwd: string,
): Record<string, string> {
  const env: Record<string, string> = { ...vars, PWD: cwd }
  for (const name of ['SHELLOPTS', 'BASHOPTS']) {
    const value = base[name]
    if (value !== undefined) env[name] = value
  }
  return env
}
