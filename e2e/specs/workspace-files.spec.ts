// Files the size that broke just-bash in browser workers (upstream issue #282: without a Buffer
// on globalThis, a file of 64 KB or more silently vanished). Only the real worker build shows it.
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'

type ExecResult = { stdout: string; stderr: string; exitCode: number }
type ExecWindow = Window & {
  fxterm?: { workspace?: { exec(input: { command: string; cwd: string; signal: AbortSignal; timeoutMs: number; outputLimitBytes: number }): Promise<ExecResult> } }
}

test('a 70 KB file written in the browser workspace can be read back whole', async ({ page }) => {
  await openDemo(page)
  const result = await page.evaluate(async () => {
    const workspace = (window as ExecWindow).fxterm?.workspace
    if (!workspace) throw new Error('window.fxterm.workspace is missing')
    const run = (command: string) =>
      workspace.exec({ command, cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
    // 14,500 numbers and their newlines: 75,894 bytes, past 70 KiB.
    const write = await run('seq 1 14500 > big.txt')
    const count = await run('wc -c < big.txt && tail -n 1 big.txt')
    return { write, count }
  })
  expect(result.write.exitCode).toBe(0)
  expect(result.count).toEqual({ stdout: '75894\n14500\n', stderr: '', exitCode: 0, cwd: '/workspace' })
})
