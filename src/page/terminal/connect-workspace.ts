/**
 * Checks an app's workspace adapter against the reference contract before any tool is offered.
 * An invalid one is not connected: fxterm still chats, and a notice says why.
 */
import type { WorkspaceAdapter } from '../../shared/protocol/workspace.ts'
import { validatePermission, validateWorkspaceInfo } from '../workspace/validate-workspace-info.ts'

export type ConnectedWorkspace = { workspace: WorkspaceAdapter | null; notice: string | null }

export function connectWorkspace(workspace: WorkspaceAdapter | undefined): ConnectedWorkspace {
  if (!workspace) return { workspace: null, notice: null }
  const info = validateWorkspaceInfo(workspace.info)
  const permission = validatePermission(workspace.permission)
  const problem = !info.ok ? info.reason : !permission.ok ? permission.reason : null
  if (!problem) return { workspace, notice: null }
  return { workspace: null, notice: `The workspace was not connected (${problem}), so fxterm can chat but not run commands.` }
}
