/**
 * A sandbox worker's side of its port (sandbox-messages.ts): it runs the requests the page sends
 * with its one runtime, one at a time, and streams the output back. Assets (Pyodide's files)
 * come through the same port: the frame's CSP allows no fetch, not even from this page's origin.
 * The node and python workers (node-worker.ts, python-worker.ts) are this plus their runtime.
 */

import { exitStatus } from '../shared/sandbox/exit-status'
import type { FromSandbox, ToSandbox } from '../shared/messages/sandbox-messages'
import type { RunIo, RunRequest, SandboxRuntime } from '../shared/sandbox/runtime-types'

/** Serves `runtime` (made on the first message that needs it) over `port`. */
export function serveRuntime(port: MessagePort, makeRuntime: () => SandboxRuntime): void {
  const send = (message: FromSandbox) => port.postMessage(message)
  let runtime: SandboxRuntime | null = null
  const theRuntime = () => (runtime ??= makeRuntime())
  let nextAsk = 1
  const asked = new Map<number, { resolve(blob: Blob): void; reject(error: Error): void }>()
  // The warm-up goes first in the queue: a run sent meanwhile starts once it is over.
  let queue = Promise.resolve(theRuntime().warm?.()).catch(() => undefined)

  port.onmessage = (event: MessageEvent<ToSandbox>) => {
    const message = event.data
    if (message.type === 'asset') {
      const waiting = asked.get(message.ask)
      asked.delete(message.ask)
      if ('blob' in message) waiting?.resolve(message.blob)
      else waiting?.reject(new Error(message.error))
      return
    }
    if (message.type === 'run') queue = queue.then(() => run(message.id, message.request))
    // Not in the queue: a run need not wait for the runtime to load. The page hears when it has.
    if (message.type === 'prepare') {
      const which = message.runtime
      const prepared = () => send({ type: 'prepared', runtime: which })
      void Promise.resolve(theRuntime().prepare?.({ loadAsset })).then(prepared, prepared)
    }
  }

  function loadAsset(name: string): Promise<Blob> {
    return new Promise((resolve, reject) => {
      const ask = nextAsk++
      asked.set(ask, { resolve, reject })
      send({ type: 'asset', ask, name })
    })
  }

  async function run(id: number, request: RunRequest): Promise<void> {
    const io: RunIo = {
      stdout: (bytes) => send({ type: 'output', id, fd: 1, bytes }),
      stderr: (bytes) => send({ type: 'output', id, fd: 2, bytes }),
      progress: (line) => send({ type: 'progress', id, line }),
      loadAsset,
    }
    try {
      const result = await theRuntime().run(request, io)
      send({ type: 'done', id, result: { ...result, exitCode: exitStatus(result.exitCode) } })
    } catch (error) {
      // A runtime reports the script's own errors itself; this is fxterm's failure.
      io.stderr(new TextEncoder().encode(`fxterm: ${error instanceof Error ? error.message : String(error)}\n`))
      send({ type: 'done', id, result: { exitCode: 1, changes: {} } })
    }
  }
}
