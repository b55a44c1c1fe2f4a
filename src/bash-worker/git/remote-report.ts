/**
 * Bash worker side: the ref-update lines fetch and push print, in git's layout: a flag, the
 * summary padded to 17 columns (two abbreviated ids and `...`), then `from -> to` and a note.
 */

const ZERO = '0000000000000000000000000000000000000000'

/** One line: ` <flag> <summary> <from> -> <to>[ (<note>)]`. */
export function refLine(flag: string, summary: string, from: string, to: string, note?: string): string {
  return ` ${flag} ${summary.padEnd(17)} ${from} -> ${to}${note ? ` (${note})` : ''}\n`
}

/** The line for a ref that moved from `before` to `after` (`forced` when not a fast-forward). */
export function updateLine(before: string | undefined, after: string, from: string, to: string, forced: boolean, kind = 'branch'): string {
  if (before === undefined || before === ZERO) return refLine('*', `[new ${kind}]`, from, to)
  if (forced) return refLine('+', `${before.slice(0, 7)}...${after.slice(0, 7)}`, from, to, 'forced update')
  return refLine(' ', `${before.slice(0, 7)}..${after.slice(0, 7)}`, from, to)
}

/** A ref's short name: refs/heads/main is main, refs/tags/v1 is v1. */
export function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags|remotes)\//, '')
}
