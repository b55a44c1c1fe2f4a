/**
 * Bash worker side: the small option parser every git subcommand uses. It knows which flags
 * take a value, splits `-abc` and `--name=value`, keeps what follows `--` as paths, and names
 * the first option it does not know, so the subcommand can answer with `unsupported`.
 */

export type ParsedArgs = {
  /** Flags seen, by their canonical name; a flag with a value maps to its values, in order. */
  flags: Map<string, string[]>
  /** Arguments that are not options, in order (before `--`). */
  positional: string[]
  /** Arguments after `--`. */
  paths: string[]
  /** The first option not in the spec, as typed. */
  unknown: string | null
}

export type ArgSpec = {
  /** Flags without a value; aliases map to a canonical name: { '-m': 'message' }. */
  booleans?: Record<string, string>
  /** Flags that take a value (`-m msg`, `-mmsg`, `--message=msg`, `--message msg`). */
  values?: Record<string, string>
}

export function parseArgs(args: readonly string[], spec: ArgSpec): ParsedArgs {
  const booleans = spec.booleans ?? {}
  const values = spec.values ?? {}
  const parsed: ParsedArgs = { flags: new Map(), positional: [], paths: [], unknown: null }
  const add = (name: string, value: string) => parsed.flags.set(name, [...(parsed.flags.get(name) ?? []), value])
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === '--') {
      parsed.paths.push(...args.slice(i + 1))
      break
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = eq === -1 ? arg : arg.slice(0, eq)
      if (name in values) {
        const value = eq === -1 ? args[++i] : arg.slice(eq + 1)
        if (value === undefined) return { ...parsed, unknown: arg }
        add(values[name]!, value)
      } else if (name in booleans && eq === -1) add(booleans[name]!, '')
      else return { ...parsed, unknown: arg }
      continue
    }
    if (arg.startsWith('-') && arg.length > 1 && !/^-\d+$/.test(arg)) {
      // -abc is -a -b -c; -mvalue is -m value.
      for (let j = 1; j < arg.length; j++) {
        const flag = `-${arg[j]}`
        if (flag in values) {
          const rest = arg.slice(j + 1)
          const value = rest !== '' ? rest : args[++i]
          if (value === undefined) return { ...parsed, unknown: flag }
          add(values[flag]!, value)
          break
        }
        if (flag in booleans) add(booleans[flag]!, '')
        else return { ...parsed, unknown: flag }
      }
      continue
    }
    if (/^-\d+$/.test(arg) && '-n' in values) {
      add(values['-n']!, arg.slice(1))
      continue
    }
    parsed.positional.push(arg)
  }
  return parsed
}

export function has(parsed: ParsedArgs, name: string): boolean {
  return parsed.flags.has(name)
}

/** The last value given for a flag. */
export function value(parsed: ParsedArgs, name: string): string | undefined {
  return parsed.flags.get(name)?.at(-1)
}
