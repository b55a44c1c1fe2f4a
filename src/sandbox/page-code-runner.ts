/**
 * Page side: the code runner the static page and <fx-terminal> lend the bash worker. Loaded on
 * the first `node` or `python3`, never before: the sandbox worker's script and Pyodide's files
 * are fetched from fxterm's own files then (so it works offline) and handed to the sandbox,
 * which itself may fetch nothing.
 */

import nodeWorkerUrl from './node-worker.ts?worker&url'
import pythonWorkerUrl from './python-worker.ts?worker&url'
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
      return fetchBytes(url)
    },
    onProgress,
  })
}

async function fetchBytes(url: URL): Promise<Uint8Array> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`)
  return new Uint8Array(await response.arrayBuffer())
}
