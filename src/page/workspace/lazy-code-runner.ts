/**
 * Page side: a CodeRunner that loads the real one (src/page/sandbox/page-code-runner.ts) on its first
 * run, so nothing of the sandbox is downloaded before someone runs `node` or `python3`.
 */

import type { CodeRunner } from '../../shared/sandbox/runtime-types'
import type { SandboxHost } from '../sandbox/sandbox-host'
import { createCodeRunMarker } from './code-run-marker'

export type LazyCodeRunner = CodeRunner & {
  /** Lines to show while a run prepares (Python's first load); answers the unsubscribe. */
  onProgress(listener: (line: string, kind: 'activity' | 'notice') => void): () => void
  /**
   * Starts the sandbox before the first run, once the shell is in use: its frame and worker take
   * a few hundred ms to start, which the first `node` would otherwise wait for. With 'python',
   * Python loads there too (a .py file was written: python3 is likely next, and its first load
   * takes seconds). Settles once that is up, or cannot be.
   */
  prewarm(runtime?: 'python'): Promise<void>
  /** Settles once Python is ready for the next run (or cannot be): a command's time limit starts after it. */
  pythonReady(): Promise<void>
  /**
   * Another session is in use: the sandbox is torn down (every worker, any running code, any
   * pending timer; a run in flight answers cancelled, its changes dropped), and the next run
   * opens a new one.
   */
  resetSession(): void
  dispose(): void
}

export function createLazyCodeRunner(): LazyCodeRunner {
  const listeners = new Set<(line: string, kind: 'activity' | 'notice') => void>()
  let runner: Promise<SandboxHost> | null = null
  let disposed = false
  const marker = createCodeRunMarker(sessionStorageIfAllowed())
  const load = () =>
    (runner ??= import('../sandbox/page-code-runner').then(({ createPageCodeRunner }) =>
      createPageCodeRunner((line) => listeners.forEach((listener) => listener(line, 'activity'))),
    ))
  return {
    async run(id, request) {
      if (disposed) throw new Error('the workspace has been closed')
      marker.started([request.runtime === 'node' ? 'node' : 'python3', ...request.argv].join(' ').slice(0, 80))
      try {
        return await (await load()).run(id, request)
      } finally {
        marker.ended()
      }
    },
    cancel(id) {
      void runner?.then((loaded) => loaded.cancel(id))
    },
    onProgress(listener) {
      listeners.add(listener)
      // The first to listen (the terminal) hears that the last page died during a run.
      const leftOver = marker.leftOver()
      if (leftOver) queueMicrotask(() => listener(leftOver, 'notice'))
      return () => listeners.delete(listener)
    },
    async prewarm(runtime) {
      if (!disposed) await load().then((loaded) => loaded.prewarm(runtime), () => undefined)
    },
    async pythonReady() {
      if (disposed) return
      await load().then((loaded) => loaded.pythonReady(), () => undefined)
    },
    resetSession() {
      void runner?.then((loaded) => loaded.resetSession())
    },
    dispose() {
      disposed = true
      void runner?.then((loaded) => loaded.dispose())
    },
  }
}

/** The page's sessionStorage, or null where there is none or reading it is refused (a sandboxed or partitioned frame). */
function sessionStorageIfAllowed(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null
  }
}
