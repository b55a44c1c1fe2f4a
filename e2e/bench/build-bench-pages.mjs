// The build the bench serves, and the bench pages built into it.
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** dist/, or FX_BENCH_DIST: another build (an A/B: build each variant into its own folder, then alternate runs of the same part against each). */
export const DIST = process.env.FX_BENCH_DIST ? resolve(process.env.FX_BENCH_DIST) : join(ROOT, 'dist')

let built

/** Builds the pages of bench-pages-vite.config.ts into the served build's e2e/bench/, once per run (a few seconds). */
export function buildBenchPages() {
  built ??= build({
    configFile: fileURLToPath(new URL('./bench-pages-vite.config.ts', import.meta.url)),
    logLevel: 'warn',
    build: { outDir: join(DIST, 'e2e/bench') },
  })
  return built
}
