/**
 * The main-thread side of command execution: the worker asks for an exec by id, this calls the
 * app's workspace adapter with an AbortSignal it owns, and a cancel by id aborts that signal.
 */
import type { ExecResult, WorkspaceAdapter } from '../../shared/protocol/workspace.ts'
import type { ExecRequest } from '../../shared/messages/engine-frames.ts'

export function createWorkspaceBridge(workspace: WorkspaceAdapter) {
  const running = new Map<number, AbortController>()
  return {
    async exec(id: number, request: ExecRequest): Promise<ExecResult> {
      const controller = new AbortController()
      running.set(id, controller)
      try {
        const result = await workspace.exec({ ...request, signal: controller.signal })
        const shaped: ExecResult = { stdout: String(result.stdout ?? ''), stderr: String(result.stderr ?? ''), exitCode: Number(result.exitCode) | 0 }
        if (typeof result.cwd === 'string') shaped.cwd = result.cwd
        return shaped
      } catch (error) {
        return { stdout: '', stderr: `fxterm: the command failed in the workspace: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 }
      } finally {
        running.delete(id)
      }
    },
    cancel(id: number): void {
      running.get(id)?.abort()
    },
    cancelAll(): void {
      for (const c of running.values()) c.abort()
    },
  }
}
