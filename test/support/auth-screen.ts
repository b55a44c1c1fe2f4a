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

/**
 * Resolves once `check` holds: checked now and after every write `term` parses, since the screen
 * changes only then. A wait that never ends is the test's timeout.
 */
export function until(term: HeadlessTerminal, check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (check()) return resolve()
    const parsed = term.onWriteParsed(() => {
      if (!check()) return
      parsed.dispose()
      resolve()
    })
  })
}
