// Running commands in the page's workspace the way the agent's run_command does, for the specs
// of `node` and `python3` (which run in the page's sandbox, src/sandbox/).
import type { Page } from '@playwright/test'

/** The sandbox's iframe: there while code runs or is ready to, gone once a run was stopped. */
export const SANDBOX = 'iframe[title="fxterm code sandbox"]'
/** The sandbox marked by markSandbox: a stopped run takes it down (a fresh one may open after). */
export const MARKED_SANDBOX = `${SANDBOX}[data-spec="marked"]`

/** Marks the sandbox open now, once there is one, so a spec can see that this one goes away. */
export async function markSandbox(page: Page): Promise<void> {
  await page.locator(SANDBOX).first().waitFor({ state: 'attached' })
  await page.locator(SANDBOX).first().evaluate((frame) => frame.setAttribute('data-spec', 'marked'))
}

export type CommandResult = { stdout: string; stderr: string; exitCode: number }

type ExecWindow = Window & {
  fxterm?: {
    workspace?: {
      exec(input: { command: string; cwd: string; signal: AbortSignal; timeoutMs: number; outputLimitBytes: number }): Promise<CommandResult>
      writeFiles(files: Array<{ path: string; data: Uint8Array }>): Promise<{ written: string[] }>
    }
  }
}

/** Runs `command` in /workspace with the agent's limits (the time limit may be lowered). */
export async function runCommand(page: Page, command: string, options: { timeoutMs?: number } = {}): Promise<CommandResult> {
  return page.evaluate(
    async ({ command, timeoutMs }) => {
      const workspace = (window as ExecWindow).fxterm?.workspace
      if (!workspace) throw new Error('window.fxterm.workspace is missing')
      const { stdout, stderr, exitCode } = await workspace.exec({ command, cwd: '/workspace', signal: new AbortController().signal, timeoutMs, outputLimitBytes: 65_536 })
      return { stdout, stderr, exitCode }
    },
    { command, timeoutMs: options.timeoutMs ?? 30_000 },
  )
}

/** Writes text files into /workspace (paths relative to it). */
export async function writeWorkspaceFiles(page: Page, files: Record<string, string>): Promise<void> {
  await page.evaluate(async (entries) => {
    const workspace = (window as ExecWindow).fxterm?.workspace
    if (!workspace) throw new Error('window.fxterm.workspace is missing')
    const { written } = await workspace.writeFiles(entries.map(([path, text]) => ({ path, data: new TextEncoder().encode(text) })))
    if (written.length !== entries.length) throw new Error(`only ${written.join(', ')} were written`)
  }, Object.entries(files))
}
