/**
 * Main-thread handle on one bash worker: its comlink remote, and a promise that settles when the
 * worker is gone, so calls to a terminated or crashed worker never hang (comlink would wait
 * forever for a reply that cannot come).
 */

import { wrap, type Remote } from 'comlink'
import type { BashWorkerApi } from '../../shared/messages/bash-worker-api'

/** Why a worker is gone. */
export type DeathReason = 'timeout' | 'cancel' | 'disposed' | { crashed: string }

export type WorkerConnection = {
  api: Remote<BashWorkerApi>
  /** Settles, never rejects, when the worker is terminated or crashes. */
  dead: Promise<DeathReason>
  /** Terminates the worker (idempotent). */
  terminate(reason: DeathReason): void
}

/** Wraps `worker`; an uncaught error in it counts as a crash. */
export function connectWorker(worker: Worker): WorkerConnection {
  let settle: (reason: DeathReason) => void = () => {}
  const dead = new Promise<DeathReason>((resolve) => {
    settle = resolve
  })
  let alive = true
  const terminate = (reason: DeathReason) => {
    if (!alive) return
    alive = false
    worker.removeEventListener('error', onError)
    worker.terminate()
    settle(reason)
  }
  const onError = (event: Event) => {
    // Duck-typed: ErrorEvent is not a global in every runtime (Node has none).
    const message = 'message' in event && typeof event.message === 'string' && event.message
    terminate({ crashed: message || 'worker error' })
  }
  worker.addEventListener('error', onError)
  return { api: wrap<BashWorkerApi>(worker), dead, terminate }
}

/** `call`'s value, or `fallback(reason)` if the worker dies first. */
export function unlessDead<T>(
  connection: WorkerConnection,
  call: Promise<T>,
  fallback: (reason: DeathReason) => T,
): Promise<T> {
  return Promise.race([call, connection.dead.then(fallback)])
}
