/**
 * The sandbox worker's entry, inside the opaque-origin iframe (sandbox-frame.ts). It runs one
 * request at a time with the runtime it names and streams the output back over the port the
 * page handed it. Pyodide's files come through the same port (`loadAsset`): the CSP allows no
 * fetch, not even from this page's own origin.
 */

// First: the ports of Node's modules read `process` as they load.
import './node/process-shim'
import { createNodeRuntime } from './node/run-node'
import { createPythonRuntime } from './python/run-python'
import type { FromSandbox, ToSandbox } from './sandbox-messages'
import type { RunIo, RunRequest, SandboxRuntime } from './runtime-types'

const runtimes: Record<RunRequest['runtime'], () => SandboxRuntime> = {
  node: once(() => createNodeRuntime()),
  python: once(() => createPythonRuntime()),
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null
  return () => (made ??= { value: make() }).value
}

function start(port: MessagePort): void {
  const send = (message: FromSandbox, transfer: Transferable[] = []) => port.postMessage(message, transfer)
  let nextAsk = 1
  const asked = new Map<number, { resolve(bytes: Uint8Array): void; reject(error: Error): void }>()
  let queue = Promise.resolve()

  port.onmessage = (event: MessageEvent<ToSandbox>) => {
    const message = event.data
    if (message.type === 'asset') {
      const waiting = asked.get(message.ask)
      asked.delete(message.ask)
      if ('bytes' in message) waiting?.resolve(message.bytes)
      else waiting?.reject(new Error(message.error))
      return
    }
    if (message.type === 'run') queue = queue.then(() => run(message.id, message.request))
    // Not in the queue: a `node` run need not wait for Python to load.
    if (message.type === 'prepare') {
      const runtime = message.runtime
      const prepared = () => send({ type: 'prepared', runtime })
      void Promise.resolve(runtimes[runtime]().prepare?.({ loadAsset })).then(prepared, prepared)
    }
  }

  function loadAsset(name: string): Promise<Uint8Array> {
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
      const result = await runtimes[request.runtime]().run(request, io)
      send({ type: 'done', id, result })
    } catch (error) {
      // A runtime reports the script's own errors itself; this is fxterm's failure.
      io.stderr(new TextEncoder().encode(`fxterm: ${error instanceof Error ? error.message : String(error)}\n`))
      send({ type: 'done', id, result: { exitCode: 1, changes: {} } })
    }
  }
}

;(self as unknown as { fxSandboxStart: typeof start }).fxSandboxStart = start
