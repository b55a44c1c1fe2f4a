/**
 * What the engine restores at boot, by name: a module with no imports, so the page's first
 * script can ask the engine worker to read them (src/engine-worker/host/worker-start-reads.ts) and stay tiny.
 */

/** The settings the engine restores at boot. */
export const CONFIG_IDS = ['model', 'mode', 'provider', 'fast', 'a11y', 'providers'] as const

/** Prompts the engine gets at boot (the store keeps at most this many per root by default). */
export const HISTORY_LIMIT = 1000
