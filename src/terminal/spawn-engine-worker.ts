/**
 * Starts the engine worker. Its own module (nothing else in it), so a page can start the worker
 * from a tiny first script, before the terminal's code has even downloaded.
 */
import { ENGINE_WORKER_NAME, READ_AT_START, startReadsWorkerName, type StartReadsAnswer, type StartReadsRequest } from '../worker/start-reads-message.ts'

/** How long the page waits for the worker's start-up reads before reading for itself. */
const START_READS_TIMEOUT_MS = 3_000

/** `name` may carry start-up reads (start-reads-message.ts). */
export function spawnEngineWorker(name = ENGINE_WORKER_NAME): Worker {
  return new Worker(new URL('../worker/engine-worker.ts', import.meta.url), { type: 'module', name })
}

/**
 * Starts the engine worker and asks it to read, at once and off this page's thread, what start-up
 * restores (src/worker/start-reads.ts). `reads` is its answer, or null when it gave none in time.
 */
export function spawnEngineWorkerReading(request: Omit<StartReadsRequest, 'type'>): { worker: Worker; reads: Promise<StartReadsAnswer | null> } {
  const message = { type: READ_AT_START, ...request } satisfies StartReadsRequest
  const worker = spawnEngineWorker(startReadsWorkerName(message))
  const channel = new MessageChannel()
  const reads = new Promise<StartReadsAnswer | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), START_READS_TIMEOUT_MS)
    channel.port1.onmessage = (event: MessageEvent<StartReadsAnswer>) => {
      clearTimeout(timer)
      channel.port1.close()
      resolve(event.data)
    }
  })
  worker.postMessage(message, [channel.port2])
  return { worker, reads }
}
