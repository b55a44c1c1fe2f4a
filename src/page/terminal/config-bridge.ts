/**
 * Settings between the engine and the app's configStore: read before boot (the engine restores
 * and validates them), written after the engine accepted a change. A store that fails or hangs
 * costs one notice and an `onEvent`; the session goes on with the settings in memory.
 */
import type { ConfigStore } from '../../shared/stores/types.ts'
import { guardStore } from '../../engine-worker/stores/guard-store.ts'

import { CONFIG_IDS } from './restored-ids.ts'

type Report = (event: { type: string } & Record<string, unknown>, notice?: string) => void

export type ConfigBridge = {
  /** The stored settings (ids without a value are left out). */
  load(): Promise<Record<string, string>>
  save(id: string, value: string): void
}

export function createConfigBridge(store: ConfigStore | undefined, report: Report): ConfigBridge {
  if (!store) return { load: async () => ({}), save: () => {} }
  // Start-up waits for the read, so it gets 3 s rather than the guard's usual 10.
  const reading = guardStore(store, { name: 'config store', timeoutMs: 3_000 })
  const writing = guardStore(store, { name: 'config store' })
  let failing = false
  const failed = (type: string, error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    report({ type, message }, failing ? undefined : `Settings could not be saved (${message}); they apply until this tab closes.`)
    failing = true
  }
  return {
    async load() {
      const config: Record<string, string> = {}
      try {
        const values = await Promise.all(CONFIG_IDS.map((id) => reading.get(id)))
        CONFIG_IDS.forEach((id, i) => {
          const value = values[i]
          if (typeof value === 'string') config[id] = value
        })
      } catch (error) {
        report({ type: 'config.load_error', message: error instanceof Error ? error.message : String(error) }, 'Saved settings could not be read; using the defaults.')
      }
      return config
    },
    save(id, value) {
      writing.set(id, value).then(
        () => (failing = false),
        (error: unknown) => failed('config.save_error', error),
      )
    },
  }
}
