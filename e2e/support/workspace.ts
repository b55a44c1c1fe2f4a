// The page's bash workspace (`window.fxterm.workspace`) as specs use it: read back what a
// person's action put there, and simulate the one file action a browser test can fake, a drop.
import type { Page } from '@playwright/test'

/** The part of the page's BashWorkspace the specs call (the contract in the brief, not src/ types). */
export type PageWorkspace = {
  readFile(input: { path: string }): Promise<string | null>
  listFiles(): Promise<string[]>
}

type WorkspaceWindow = Window & { fxterm?: { workspace?: PageWorkspace } }

/** A file's text in /workspace (path relative to it), or null when there is none. */
export async function readWorkspaceFile(page: Page, path: string): Promise<string | null> {
  return page.evaluate(async (relative) => {
    const workspace = (window as WorkspaceWindow).fxterm?.workspace
    if (!workspace) throw new Error('window.fxterm.workspace is missing')
    return workspace.readFile({ path: relative })
  }, path)
}

export type DroppedFile = { name: string; text: string }

/**
 * Drops files onto the terminal the way a browser delivers a drag from the desktop: a dragover
 * (which the page must accept) and then a drop carrying a DataTransfer of File objects.
 * Folders cannot be built from script, so only plain files are dropped.
 */
export async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const file of list) transfer.items.add(new File([file.text], file.name, { type: 'text/plain' }))
    return transfer
  }, files)
  await page.dispatchEvent('#terminal', 'dragover', { dataTransfer })
  await page.dispatchEvent('#terminal', 'drop', { dataTransfer })
  await dataTransfer.dispose()
}

type ExecWindow = Window & {
  fxterm?: { workspace?: { exec(input: { command: string; cwd: string; signal: AbortSignal; timeoutMs: number; outputLimitBytes: number }): Promise<{ exitCode: number }> } }
}

/**
 * Runs `true` in the workspace. just-bash is downloaded and started on the first command, so a
 * spec that times a command warms the shell first: the timing then covers the command only.
 */
export async function warmWorkspace(page: Page): Promise<void> {
  const exitCode = await page.evaluate(async () => {
    const workspace = (window as ExecWindow).fxterm?.workspace
    if (!workspace) throw new Error('window.fxterm.workspace is missing')
    const result = await workspace.exec({ command: 'true', cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
    return result.exitCode
  })
  if (exitCode !== 0) throw new Error(`warming the workspace: true exited ${exitCode}`)
}
