/**
 * Page side: the code runner the static page and <fx-terminal> lend the bash worker. Loaded on
 * the first `node` or `python3`, never before: the sandbox worker's script and Pyodide's files
 * are fetched from fxterm's own files then (so it works offline) and handed to the sandbox,
 * which itself may fetch nothing.
 */

import nodeWorkerUrl from '../../sandbox/node-worker.ts?worker&url'
import pythonWorkerUrl from '../../sandbox/python-worker.ts?worker&url'
import { createSandboxHost, type SandboxHost } from './sandbox-host'

export function createPageCodeRunner(onProgress: (line: string) => void): SandboxHost {
  const text = (url: string) => fetchBytes(new URL(url, import.meta.url)).then((bytes) => new TextDecoder().decode(bytes))
  return createSandboxHost({
    workerSources: async () => {
      const [node, python] = await Promise.all([text(nodeWorkerUrl), text(pythonWorkerUrl)])
      return { node, python }
    },
    async loadAsset(name) {
      const { PYODIDE_ASSETS } = await import('./python/pyodide-assets')
      const url = Object.hasOwn(PYODIDE_ASSETS, name) ? PYODIDE_ASSETS[name] : undefined
      if (!url) throw new Error(`no such asset: ${name}`)
      return name === 'python-snapshot.bin' ? fetchUnzipped(url) : fetchBytes(url)
    },
    pythonAssets: async () => Object.keys((await import('./python/pyodide-assets')).PYODIDE_ASSETS),
    onProgress,
  })
}

/**
 * Python's snapshot, unzipped here as it downloads (it is built gzipped): the sandbox worker
 * would otherwise unzip it only once all of it is there, on the thread that then restores Python.
 */
async function fetchUnzipped(url: URL): Promise<Uint8Array> {
  const response = await fetch(url)
  if (!response.ok || !response.body) throw new Error(`${url.pathname}: HTTP ${response.status}`)
  const reader = response.body.getReader()
  const first = await reader.read()
  const head = first.value ?? new Uint8Array()
  const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start: (controller) => (first.done ? controller.close() : controller.enqueue(head)),
    async pull(controller) {
      const next = await reader.read()
      if (next.done) controller.close()
      else controller.enqueue(next.value)
    },
  })
  // Unless something on the way has unzipped it already (the sandbox checks again).
  const gzipped = head[0] === 0x1f && head[1] === 0x8b
  return new Uint8Array(await new Response(gzipped ? body.pipeThrough(new DecompressionStream('gzip')) : body).arrayBuffer())
}

async function fetchBytes(url: URL): Promise<Uint8Array> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`)
  return new Uint8Array(await response.arrayBuffer())
}
