/**
 * The API the bash worker exposes over comlink. Every method returns a value, never throws:
 * comlink would keep only an error's name and message.
 */

import type { ExecResult } from '../protocol/workspace'
import { createBashSession, type BashSession } from './bash-session'
import type { SnapshotDelta, SnapshotEntry } from './snapshot-store'

export type WorkerInit = {
  entries: Array<[string, SnapshotEntry]>
  root: string
  home: string
  env: Record<string, string>
}

export type WorkerExecInput = {
  command: string
  cwd: string
  timeoutMs: number
  outputLimitBytes: number
}

/** A command's result plus the file changes it made, for the main thread's snapshot. */
export type WorkerExecReply = { result: ExecResult; changes: SnapshotDelta }

export type BashWorkerApi = {
  /** Creates the session; must be called (and awaited) once before anything else. */
  init(init: WorkerInit): Promise<{ ok: true } | { ok: false; error: string }>
  /** Runs a command; `id` names it for `cancel`. */
  exec(id: number, input: WorkerExecInput): Promise<WorkerExecReply>
  /** Aborts command `id` if it is still running. */
  cancel(id: number): void
  readFile(path: string): Promise<string | null>
}

const NO_CHANGES: SnapshotDelta = { changed: [], removed: [] }

/** The worker's API, over a session created by `init`. */
export function createBashWorkerApi(): BashWorkerApi {
  let session: Promise<BashSession> | null = null
  const running = new Map<number, AbortController>()

  return {
    async init(init) {
      try {
        session = createBashSession(init)
        await session
        return { ok: true }
      } catch (error) {
        session = null
        return { ok: false, error: error instanceof Error ? error.message : String(error) }
      }
    },

    async exec(id, input) {
      if (!session) {
        const result = { stdout: '', stderr: 'fxterm: the shell is not started\n', exitCode: 1 }
        return { result, changes: NO_CHANGES }
      }
      const controller = new AbortController()
      running.set(id, controller)
      try {
        const ready = await session
        const result = await ready.exec({ ...input, signal: controller.signal })
        // A failed scan only costs the restore-after-terminate copy, not the command's result.
        const changes = await ready.changes().catch(() => NO_CHANGES)
        return { result, changes }
      } finally {
        running.delete(id)
      }
    },

    cancel(id) {
      running.get(id)?.abort()
    },

    async readFile(path) {
      if (!session) return null
      return (await session).readFile(path)
    },
  }
}
