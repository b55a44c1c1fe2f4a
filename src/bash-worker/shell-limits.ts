/**
 * Limits of just-bash that would otherwise give a silently wrong answer, refused before the
 * command runs with a line that says which: a brace range makes at most 10,000 words (just-bash
 * stops there without a word: `echo {1..200000} | wc -w` printed 10000), and /dev/zero reads as
 * an empty file. Found on the parsed script, so text inside quotes or comments is not mistaken
 * for them. Runs in the bash worker.
 */
import type { ExecResult } from '../shared/protocol/workspace'
import { EXIT_REFUSED } from '../shared/workspace/exec-result'
import { formatCount } from '../shared/workspace/truncate-output'

/** just-bash's own cap on one `{a..b}` range (not configurable in just-bash 3.4). */
export const BRACE_RANGE_MAX = 10_000

type BraceRange = { type: 'Range'; start: string | number; end: string | number; step?: number }

/**
 * The refusal for a command that would meet one of those limits, or null to run it. `script` is
 * just-bash's parse of it (`bash.transform(command).ast`; null when it does not parse, which
 * just-bash reports itself when it runs the command).
 */
export function refuseSilentLimits(script: unknown, cwd: string): ExecResult | null {
  const problem = findProblem(script)
  return problem ? { stdout: '', stderr: `fxterm: ${problem}\n`, exitCode: EXIT_REFUSED, cwd } : null
}

function findProblem(node: unknown): string | null {
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = findProblem(item)
      if (found) return found
    }
    return null
  }
  if (node === null || typeof node !== 'object') return null
  const record = node as Record<string, unknown>
  if (record['type'] === 'Range') return rangeProblem(record as unknown as BraceRange)
  if (record['type'] === 'Literal' && record['value'] === '/dev/zero') {
    return '/dev/zero is not there in this shell (the only device file is /dev/null); write the bytes with printf or head -c of a file instead'
  }
  for (const value of Object.values(record)) {
    const found = findProblem(value)
    if (found) return found
  }
  return null
}

function rangeProblem(range: BraceRange): string | null {
  const at = (value: string | number) => (typeof value === 'number' ? value : value.codePointAt(0) ?? 0)
  const step = Math.abs(range.step || 1)
  const words = Math.floor(Math.abs(at(range.end) - at(range.start)) / step) + 1
  if (words <= BRACE_RANGE_MAX) return null
  const text = `{${range.start}..${range.end}${range.step !== undefined ? `..${range.step}` : ''}}`
  return (
    `${text} would make ${formatCount(words)} words; this shell expands at most ` +
    `${formatCount(BRACE_RANGE_MAX)} per range. Use seq ${range.start} ${range.end} instead`
  )
}
