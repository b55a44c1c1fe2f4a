/**
 * Prompt history between the engine and the app's promptHistoryStore (guarded), for one
 * workspace root: read before boot (Up walks it), appended for every submitted prompt and slash
 * command, cleared by /history clear. A store that fails or hangs costs one notice per streak
 * and an `onEvent`; typing goes on with the history in memory.
 */
import { guardStore } from '../../engine-worker/stores/guard-store.ts'
import { messageOf } from '../../shared/stores/store-errors.ts'
import type { PromptHistoryStore } from '../../shared/stores/types.ts'

import { HISTORY_LIMIT } from './restored-ids.ts'
/** Start-up waits for the read, so it gets 3 s rather than the guard's usual 10. */
const LOAD_TIMEOUT_MS = 3_000

type Report = (event: { type: string } & Record<string, unknown>, notice?: string) => void

/** What the terminal asks of the history store. */
export type HistoryBridge = {
  /** The stored prompts, oldest first (empty when there is no store or it fails). */
  load(): Promise<string[]>
  append(value: string): void
  clear(): void
}

/** The bridge over `store` for `workspaceRoot` ('/' when there is no workspace). */
export function createHistoryBridge(store: PromptHistoryStore | undefined, workspaceRoot: string, report: Report): HistoryBridge {
  if (!store) return { load: async () => [], append() {}, clear() {} }
  const reading = guardStore(store, { name: 'history store', timeoutMs: LOAD_TIMEOUT_MS })
  const writing = guardStore(store, { name: 'history store' })
  let failing = false
  // Writes go one after another, so a clear never overtakes the append typed before it.
  let queue: Promise<unknown> = Promise.resolve()

  const run = (type: string, call: () => Promise<unknown>) => {
    queue = queue.then(call).then(
      () => (failing = false),
      (error: unknown) => {
        const message = messageOf(error)
        report({ type, message }, failing ? undefined : `Prompt history could not be saved (${message}); it is kept until this tab closes.`)
        failing = true
      },
    )
  }

  return {
    async load() {
      try {
        const entries = await reading.load(workspaceRoot, HISTORY_LIMIT)
        if (!Array.isArray(entries)) throw new Error('the history store answered load() with something other than a list')
        return entries.filter((entry): entry is string => typeof entry === 'string')
      } catch (error) {
        const message = messageOf(error)
        report({ type: 'history.load_error', message }, `Prompt history could not be read (${message}).`)
        return []
      }
    },
    // 'duplicate' and 'record_too_large' are answers, not failures: nothing more to do.
    append: (value) => run('history.append_error', () => writing.append(workspaceRoot, value, Date.now())),
    clear: () => run('history.clear_error', () => writing.clear(workspaceRoot)),
  }
}
