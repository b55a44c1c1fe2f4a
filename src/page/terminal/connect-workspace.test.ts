import { describe, expect, test } from 'vitest'
import type { WorkspaceAdapter } from '../../shared/protocol/workspace.ts'
import { connectWorkspace } from './connect-workspace.ts'

const valid: WorkspaceAdapter = {
  info: { version: 1, root: '/workspace', cwd: '/workspace', home: '/home/user', gitAvailable: false, ephemeral: true },
  permission: 'allow-sandboxed',
  exec: () => ({ stdout: '', stderr: '', exitCode: 0 }),
}

describe('connectWorkspace', () => {
  test('a valid workspace is connected with no notice', () => {
    expect(connectWorkspace(valid)).toEqual({ workspace: valid, notice: null })
  })

  test('no workspace means chat only, silently', () => {
    expect(connectWorkspace(undefined)).toEqual({ workspace: null, notice: null })
  })

  test('a cwd that differs from the root is refused with a notice saying why', () => {
    const bad = { ...valid, info: { ...valid.info, cwd: '/workspace/src' } }
    const result = connectWorkspace(bad)
    expect(result.workspace).toBeNull()
    expect(result.notice).toMatch(/^The workspace was not connected \(.*cwd.*\), so fxterm can chat but not run commands\.$/)
  })

  test('a relative root is refused', () => {
    const bad = { ...valid, info: { ...valid.info, root: 'workspace', cwd: 'workspace' } }
    expect(connectWorkspace(bad).workspace).toBeNull()
  })

  test('an unknown permission is refused', () => {
    const bad = { ...valid, permission: 'everything' as unknown as WorkspaceAdapter['permission'] }
    const result = connectWorkspace(bad)
    expect(result.workspace).toBeNull()
    expect(result.notice).toContain('permission')
  })
})
