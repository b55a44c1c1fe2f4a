/**
 * The workspace contract from the reference host contract (browser-integration.md), plus the
 * limits DESIGN.md shares between engine and host.
 */

export const COMMAND_MAX_BYTES = 64 * 1024
export const OUTPUT_LIMIT_BYTES = 64 * 1024
export const COMMAND_TIMEOUT_MS = 30_000

/** Version 1 workspace info; validated by `validateWorkspaceInfo`. */
export type WorkspaceInfo = {
  version: 1
  root: string
  cwd: string
  home: string
  gitAvailable: false
  ephemeral: true
}

export type ExecInput = {
  command: string
  cwd: string
  signal: AbortSignal
  timeoutMs: number
  outputLimitBytes: number
}

export type ExecResult = { stdout: string; stderr: string; exitCode: number }

/** The app-supplied workspace adapter (reference contract). */
export type WorkspaceAdapter = {
  info: WorkspaceInfo
  permission: 'allow-sandboxed' | 'prompt'
  exec(input: ExecInput): ExecResult | Promise<ExecResult>
}
