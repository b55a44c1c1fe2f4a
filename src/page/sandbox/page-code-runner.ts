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
  const text = (url: string) => fetchBlob(new URL(url, import.meta.url)).then((blob) => blob.text())
  return createSandboxHost({
    workerSources: async () => {
      const [node, python] = await Promise.all([text(nodeWorkerUrl), text(pythonWorkerUrl)])
      return { node, python }
    },
    async loadAsset(name) {
      const { PYODIDE_ASSETS } = await import('./python/pyodide-assets')
      const url = Object.hasOwn(PYODIDE_ASSETS, name) ? PYODIDE_ASSETS[name] : undefined
      if (!url) throw new Error(`no such asset: ${name}`)
      // As a Blob: its bytes stay with the browser and go to the sandbox by reference. The
      // snapshot stays gzipped too: the sandbox worker unzips it while the wasm compiles.
      return fetchBlob(url)
    },
    pythonAssets: async () => Object.keys((await import('./python/pyodide-assets')).PYODIDE_ASSETS),
    onProgress,
  })
}

async function fetchBlob(url: URL): Promise<Blob> {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`)
  return response.blob()
}
