/**
 * Measures what the workspace adapter adds to a small command, against the same command run
 * straight on just-bash in the same worker.
 *
 * From the page (main.ts exposes the workspace as `window.fxterm.workspace`), without importing
 * this module:
 *
 *   const ws = window.fxterm.workspace
 *   const direct = await ws.benchDirect('echo hi')              // ms inside the worker
 *   const t = performance.now()
 *   await ws.exec({ command: 'echo hi', cwd: ws.info.root, signal: new AbortController().signal,
 *                   timeoutMs: 30000, outputLimitBytes: 65536 })
 *   const adapter = performance.now() - t                        // ms as the engine sees it
 *
 * The adapter's time includes the round trip to the worker, the limits, truncation and the
 * change scan that keeps the restore snapshot current.
 */

import type { BashWorkspace } from './create-bash-workspace'

/** Medians over `runs`, after one warm-up run of each path. */
export type BenchResult = { command: string; runs: number; directMs: number; adapterMs: number; overheadMs: number }

/** Times `command` both ways on `workspace`; the commands really run, so use harmless ones. */
export function createWorkspaceBench(workspace: Pick<BashWorkspace, 'info' | 'exec' | 'benchDirect'>) {
  async function adapterMs(command: string): Promise<number> {
    const signal = new AbortController().signal
    const started = performance.now()
    await workspace.exec({ command, cwd: workspace.info.root, signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
    return performance.now() - started
  }

  return {
    /** One adapter exec, timed from the caller's side. */
    adapterMs,
    /** One direct just-bash exec, timed inside the worker. */
    directMs: (command: string) => workspace.benchDirect(command),
    /** Alternates both paths `runs` times and reports the medians. */
    async compare(command: string, runs = 20): Promise<BenchResult> {
      await workspace.benchDirect(command)
      await adapterMs(command)
      const direct: number[] = []
      const adapter: number[] = []
      for (let i = 0; i < runs; i++) {
        direct.push(await workspace.benchDirect(command))
        adapter.push(await adapterMs(command))
      }
      const directMs = median(direct)
      const adapterMedian = median(adapter)
      return { command, runs, directMs, adapterMs: adapterMedian, overheadMs: adapterMedian - directMs }
    },
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  if (sorted.length === 0) return Number.NaN
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}
