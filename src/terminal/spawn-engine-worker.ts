/**
 * Starts the engine worker. Its own module (nothing else in it), so a page can start the worker
 * from a tiny first script, before the terminal's code has even downloaded.
 */
import { READ_AT_START, type StartReadsAnswer, type StartReadsRequest } from '../worker/start-reads-message.ts'

/** How long the page waits for the worker's start-up reads before reading for itself. */
const START_READS_TIMEOUT_MS = 3_000

export function spawnEngineWorker(): Worker {
  return new Worker(new URL('../worker/engine-worker.ts', import.meta.url), { type: 'module', name: 'fxterm-engine' })
}

/**
 * Starts the engine worker and asks it to read, at once and off this page's thread, what start-up
 * restores (src/worker/start-reads.ts). `reads` is its answer, or null when it gave none in time.
 */
export function spawnEngineWorkerReading(request: Omit<StartReadsRequest, 'type'>): { worker: Worker; reads: Promise<StartReadsAnswer | null> } {
  const worker = spawnEngineWorker()
  const channel = new MessageChannel()
  const reads = new Promise<StartReadsAnswer | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), START_READS_TIMEOUT_MS)
    channel.port1.onmessage = (event: MessageEvent<StartReadsAnswer>) => {
      clearTimeout(timer)
      channel.port1.close()
      resolve(event.data)
    }
  })
  worker.postMessage({ type: READ_AT_START, ...request } satisfies StartReadsRequest, [channel.port2])
  return { worker, reads }
}
