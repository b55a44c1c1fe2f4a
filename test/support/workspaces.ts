/**
 * For tests: bash workspaces whose workers run in this thread (in-process-worker.ts), so the
 * adapter runs in Node against real just-bash. Call `disposeOpened` after each test.
 */

import type { ExecInput } from '../../src/shared/protocol/workspace'
import { createBashWorkerApi } from '../../src/bash-worker/worker-api'
import type { BashWorkerApi } from '../../src/shared/messages/bash-worker-api'
import { createBashWorkspaceWithSeams, type BashWorkspace, type BashWorkspaceSeamOptions } from '../../src/page/workspace/create-bash-workspace'
import { createInProcessWorker, type InProcessWorker } from '../../src/page/workspace/in-process-worker'

const opened: BashWorkspace[] = []

/** Disposes every workspace `openWorkspace` made. */
export function disposeOpened(): void {
  for (const workspace of opened.splice(0)) workspace.dispose()
}

/** A workspace whose workers run `makeApi()` in this thread; `created` lists them in order. */
export function openWorkspace(
  options: BashWorkspaceSeamOptions = {},
  makeApi: () => BashWorkerApi = createBashWorkerApi,
): { workspace: BashWorkspace; created: InProcessWorker[] } {
  const created: InProcessWorker[] = []
  const workspace = createBashWorkspaceWithSeams({
    ...options,
    worker: () => {
      const worker = createInProcessWorker(makeApi())
      created.push(worker)
      return worker
    },
  })
  opened.push(workspace)
  return { workspace, created }
}

/**
 * A worker API whose `hang` command never finishes and ignores cancel, like a stuck builtin;
 * `onHang` is told when one has reached the worker.
 */
export function apiWithStuckCommand(onHang?: () => void): BashWorkerApi {
  const real = createBashWorkerApi()
  return {
    ...real,
    exec: (id, input) => {
      if (input.command !== 'hang') return real.exec(id, input)
      onHang?.()
      return new Promise(() => {})
    },
  }
}

/** An exec input with the contract's limits, in the root unless overridden. */
export function execInput(command: string, overrides: Partial<ExecInput> = {}): ExecInput {
  return {
    command,
    cwd: '/workspace',
    signal: new AbortController().signal,
    timeoutMs: 30_000,
    outputLimitBytes: 65_536,
    ...overrides,
  }
}
