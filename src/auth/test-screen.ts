/** What the sign-in tests that run the real engine share: its screen as text, and a wait. */
import type xtermHeadless from '@xterm/headless'

type HeadlessTerminal = InstanceType<typeof xtermHeadless.Terminal>

/** Every line of the buffer, scrollback included. */
export function screenOf(term: HeadlessTerminal): string {
  const buffer = term.buffer.active
  const lines: string[] = []
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '')
  return lines.join('\n')
}

/** Waits (up to about 4 s) until `check` holds. */
export async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2))
  if (!check()) throw new Error(`never saw ${what}`)
}
