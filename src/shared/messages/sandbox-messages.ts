/**
 * The messages between the page (sandbox-host.ts) and the sandbox worker (sandbox-worker.ts) on
 * their one MessagePort. Everything from the sandbox is untrusted: the page checks each message's
 * shape (`isFromSandbox`) and acts only on runs and asset names it knows.
 */

import type { RunRequest, RunResult } from '../sandbox/runtime-types'

export type ToSandbox =
  | { type: 'run'; id: number; request: RunRequest }
  /** Load Python now: a .py file was just written, so python3 is likely next. */
  | { type: 'prepare'; runtime: 'python' }
  /** A Blob: handed over by reference, so the page's thread never copies Pyodide's megabytes. */
  | { type: 'asset'; ask: number; blob: Blob }
  | { type: 'asset'; ask: number; error: string }

export type FromSandbox =
  | { type: 'output'; id: number; fd: 1 | 2; bytes: Uint8Array }
  | { type: 'progress'; id: number; line: string }
  | { type: 'asset'; ask: number; name: string }
  | { type: 'done'; id: number; result: RunResult }
  /** What a `prepare` asked for is ready (or failed: the next run says why). */
  | { type: 'prepared'; runtime: 'python' }
  /** The worker could not start (its script failed to load). */
  | { type: 'failed'; message: string }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/** Whether `data` has the shape of a message the sandbox may send. */
export function isFromSandbox(data: unknown): data is FromSandbox {
  if (!isRecord(data)) return false
  switch (data.type) {
    case 'output':
      return typeof data.id === 'number' && (data.fd === 1 || data.fd === 2) && data.bytes instanceof Uint8Array
    case 'progress':
      return typeof data.id === 'number' && typeof data.line === 'string'
    case 'asset':
      return typeof data.ask === 'number' && typeof data.name === 'string'
    case 'done':
      return typeof data.id === 'number' && isRunResult(data.result)
    case 'failed':
      return typeof data.message === 'string'
    case 'prepared':
      return data.runtime === 'python'
    default:
      return false
  }
}

function isRunResult(value: unknown): value is RunResult {
  if (!isRecord(value) || typeof value.exitCode !== 'number' || !isRecord(value.changes)) return false
  return Object.values(value.changes).every((change) => change === null || change instanceof Uint8Array)
}
