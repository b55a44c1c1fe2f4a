/**
 * Tests only: runs the same shell lines with fxterm's git and with native git (git-harness.ts)
 * and gives back both sides' results, the native temporary directory written as /workspace, so
 * a test can assert they are equal. Native stderr is only captured when a line fails, so
 * stderr is compared for failing lines only.
 */

import { fxGit, nativeGit, type Ran } from './git-harness'

export type Compared = { line: string; stdout: string; exitCode: number; stderr?: string }

const live: Array<{ dispose(): void }> = []

/** Removes every native directory `compareGit` made; call it after each test. */
export function disposeNatives(): void {
  for (const native of live.splice(0)) native.dispose()
}

function shape(line: string, ran: Ran): Compared {
  return { line, stdout: ran.stdout, exitCode: ran.exitCode, ...(ran.exitCode === 0 ? {} : { stderr: ran.stderr }) }
}

/** Both sides' results for `lines`, in order. `git init` runs natively as `git init -q -b main`'s equal. */
export async function compareGit(lines: string[]): Promise<{ fx: Compared[]; native: Compared[] }> {
  const fx = await fxGit()
  const native = nativeGit()
  live.push(native)
  const fxOut: Compared[] = []
  const nativeOut: Compared[] = []
  for (const line of lines) {
    fxOut.push(shape(line, await fx.run(line)))
    const nativeLine = line.replace(/^git init( -q)?$/, (_, q: string | undefined) => `git init -q -b main${q ? '' : ' && echo "Initialized empty Git repository in $PWD/.git/"'}`)
    const ran = native.run(nativeLine)
    const local = (text: string) => text.split(native.dir).join('/workspace')
    nativeOut.push(shape(line, { stdout: local(ran.stdout), stderr: local(ran.stderr), exitCode: ran.exitCode }))
  }
  return { fx: fxOut, native: nativeOut }
}
