/**
 * Starts the engine worker. Its own module (nothing else in it), so a page can start the worker
 * from a tiny first script, before the terminal's code has even downloaded.
 */
import { markPhase } from '../../shared/start-up-timeline.ts'
import { ENGINE_WORKER_NAME, READ_AT_START, READ_AT_START_ANSWER, startReadsWorkerName, type StartReadsAnswer, type StartReadsAnswerMessage, type StartReadsRequest } from '../../shared/messages/start-reads-message.ts'

/** How long the page waits for the worker's start-up reads before reading for itself. */
const START_READS_TIMEOUT_MS = 3_000

/** `name` may carry start-up reads (start-reads-message.ts). */
export function spawnEngineWorker(name = ENGINE_WORKER_NAME): Worker {
  return new Worker(new URL('../../engine-worker/host/engine-worker.ts', import.meta.url), { type: 'module', name })
}

/**
 * Starts the engine worker and asks it to read, at once and off this page's thread, what start-up
 * restores (src/engine-worker/host/worker-start-reads.ts). `reads` is its answer, or null when it gave none in time.
 */
export function spawnEngineWorkerReading(request: Omit<StartReadsRequest, 'type'>): { worker: Worker; reads: Promise<StartReadsAnswer | null> } {
  markPhase('spawn-worker', 'start')
  const worker = spawnEngineWorker(startReadsWorkerName({ type: READ_AT_START, ...request }))
  markPhase('spawn-worker', 'end')
  const reads = new Promise<StartReadsAnswer | null>((resolve) => {
    const done = (answer: StartReadsAnswer | null) => {
      clearTimeout(timer)
      worker.removeEventListener('message', onAnswer)
      resolve(answer)
    }
    // Added before anyone else listens, so the answer never reaches the page's Comlink.
    const onAnswer = (event: MessageEvent<Partial<StartReadsAnswerMessage> | null>) => {
      if (event.data?.type !== READ_AT_START_ANSWER) return
      event.stopImmediatePropagation()
      done(event.data.answer ?? null)
    }
    const timer = setTimeout(() => done(null), START_READS_TIMEOUT_MS)
    worker.addEventListener('message', onAnswer)
  })
  return { worker, reads }
}
