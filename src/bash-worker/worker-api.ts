/**
 * Bash worker: the API it exposes over comlink (its shape is in src/shared/messages/bash-worker-api.ts).
 * Every method returns a value, never throws: comlink would keep only an error's name and message.
 */

import { transfer } from 'comlink'
import { createBashSession, type BashSession } from './bash-session'
import { messageOf } from '../shared/workspace/exec-result'
import type { BashWorkerApi, Outcome, SnapshotDelta } from '../shared/messages/bash-worker-api'

const NO_CHANGES: SnapshotDelta = { changed: [], removed: [] }
const NOT_STARTED = 'the shell is not started'

/** The worker's API, over a session created by `init`. */
export function createBashWorkerApi(): BashWorkerApi {
  let session: Promise<BashSession> | null = null
  const running = new Map<number, AbortController>()

  /** `use(session)` as an Outcome: errors (and a missing session) become `{ ok: false }`. */
  async function attempt<T>(use: (ready: BashSession) => Promise<T>): Promise<Outcome<T>> {
    if (!session) return { ok: false, error: NOT_STARTED }
    try {
      return { ok: true, value: await use(await session) }
    } catch (error) {
      return { ok: false, error: messageOf(error) }
    }
  }

  /** A failed scan only costs the restore-after-terminate copy, not the call's result. */
  const changesOf = (ready: BashSession) => ready.changes().catch(() => NO_CHANGES)

  return {
    async init(init, codeRunner, gitHost) {
      try {
        session = createBashSession({ ...init, ...(codeRunner ? { codeRunner } : {}), ...(gitHost ? { gitHost } : {}) })
        await session
        return { ok: true }
      } catch (error) {
        session = null
        return { ok: false, error: messageOf(error) }
      }
    },

    async exec(id, input) {
      if (!session) {
        const result = { stdout: '', stderr: `fxterm: ${NOT_STARTED}\n`, exitCode: 1, cwd: input.cwd }
        return { result, changes: NO_CHANGES, vars: null }
      }
      const controller = new AbortController()
      running.set(id, controller)
      try {
        const ready = await session
        const result = await ready.exec({ ...input, signal: controller.signal })
        return { result, changes: await changesOf(ready), vars: ready.vars() }
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

    writeFiles: (files) =>
      attempt(async (ready) => {
        const done = await ready.writeFiles(files)
        return { ...done, changes: await changesOf(ready) }
      }),

    fileTool: (request) =>
      attempt(async (ready) => {
        const answer = await ready.fileTool(request)
        return { answer, changes: await changesOf(ready) }
      }),

    putFiles: (write, remove) =>
      attempt(async (ready) => {
        await ready.putFiles(write, remove)
        return changesOf(ready)
      }),

    listFiles: () => attempt((ready) => ready.listFiles()),

    async exportZip() {
      const zip = await attempt((ready) => ready.exportZip())
      // zipSync's buffer is its own, never shared, so it can move instead of being copied.
      return zip.ok ? transfer(zip, [zip.value.buffer as ArrayBuffer]) : zip
    },
  }
}
