import { afterEach, describe, expect, it } from 'vitest'
import { disposeOpened, openWorkspace as open } from './test-workspaces'
import { createWorkspaceBench } from './workspace-bench'

afterEach(disposeOpened)

describe('createWorkspaceBench', () => {
  it('times a command both ways and reports the medians and their difference', async () => {
    const { workspace } = open()
    const result = await createWorkspaceBench(workspace).compare('echo hi >> runs.txt', 3)
    expect({
      command: result.command,
      runs: result.runs,
      timings: [result.directMs, result.adapterMs].every((ms) => Number.isFinite(ms) && ms >= 0),
      overhead: result.overheadMs === result.adapterMs - result.directMs,
    }).toEqual({ command: 'echo hi >> runs.txt', runs: 3, timings: true, overhead: true })
    // One warm-up plus three runs of each path, every one a real exec.
    expect(await workspace.readFile({ path: 'runs.txt' })).toBe('hi\n'.repeat(8))
  })
})
