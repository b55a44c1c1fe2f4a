// The stream-overhead bench page: runs stream-bench-worker.ts and exposes one call for
// stream-bench.mjs, so the whole measurement happens inside that one worker.
import type { StreamBenchReply, StreamBenchRequest, StreamSample } from './stream-bench-worker.ts'

type BenchWindow = Window & { fxStreamBench?: (request: StreamBenchRequest) => Promise<StreamSample[]> }

;(window as BenchWindow).fxStreamBench = (request) => {
  const worker = new Worker(new URL('./stream-bench-worker.ts', import.meta.url), { type: 'module' })
  return new Promise<StreamSample[]>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<StreamBenchReply>) => {
      worker.terminate()
      if (event.data.ok) resolve(event.data.samples)
      else reject(new Error(event.data.message))
    }
    worker.onerror = (event) => {
      worker.terminate()
      reject(new Error(`stream bench worker failed: ${event.message}`))
    }
    worker.postMessage(request)
  })
}
