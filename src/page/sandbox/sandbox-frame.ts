/**
 * Page side: the walls around code the agent runs. A hidden iframe with `sandbox="allow-scripts"`
 * (no allow-same-origin, so its origin is opaque: no IndexedDB, OPFS, cookies or storage of this
 * origin, no reach into the page's DOM) whose CSP allows no network at all and no script but its
 * own bootstrap, blob: URLs, eval and wasm. The bootstrap starts workers there when the page asks
 * (so a busy script never blocks the page, and tearing the iframe down kills them all), each
 * with one MessagePort the page talks over, and terminates one when the page says so: a `node`
 * run gets a worker of its own, thrown away after it. Workers are classic ones that import the
 * real worker module from a blob: URL: module workers do not start in an opaque-origin frame in
 * Chromium. Only the parent window is obeyed; the workers' own messages to the frame are ignored.
 */

/** Runs in the sandbox iframe; its SHA-256 is in the CSP (sandbox-frame.test.ts checks it). */
export const BOOTSTRAP = `const modules = new Map()
const workers = new Map()
const blob = (text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' }))
const loader = blob("onmessage = (event) => { onmessage = null; const port = event.ports[0]; import(event.data).then(() => self.fxSandboxStart(port), (error) => port.postMessage({ type: 'failed', message: String(error) })) }")
addEventListener('message', (event) => {
  const message = event.data
  if (event.source !== parent || !message || typeof message !== 'object') return
  if (message.type === 'fx-sandbox-module' && !modules.has(message.name)) modules.set(message.name, blob(message.source))
  else if (message.type === 'fx-sandbox-worker' && modules.has(message.name) && !workers.has(message.id)) {
    const worker = new Worker(loader)
    workers.set(message.id, worker)
    worker.onerror = (error) => message.status.postMessage({ type: 'crashed', message: error.message || 'the sandbox worker failed' })
    worker.postMessage(modules.get(message.name), [message.port])
  } else if (message.type === 'fx-sandbox-end') {
    workers.get(message.id)?.terminate()
    workers.delete(message.id)
  }
})
parent.postMessage('fx-sandbox-ready', '*')`

export const BOOTSTRAP_SHA256 = 'ZKdKtuNXHeuo70ADDUmTLmyHxUiI57J9pwx0DGk3ew8='

/** No network (connect, img, fonts, frames…), no script from anywhere but blob: and the bootstrap. */
export const SANDBOX_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${BOOTSTRAP_SHA256}' blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
  'worker-src blob:',
].join('; ')

/** One worker in the frame. */
export type SandboxWorker = {
  /** To and from the worker. */
  port: MessagePort
  /** Resolves with a reason when the worker dies by itself (an uncaught error, a failed start), or 'closed' when it is ended. */
  crashed: Promise<string>
  /** Terminates the worker (inside the frame), with everything it was running. */
  end(): void
}

export type SandboxFrame = {
  /** Starts a worker running the module `name` (given to `openSandboxFrame`). */
  startWorker(name: string): SandboxWorker
  /** Tears the iframe down, which terminates all its workers. */
  close(): void
  /** Says on the iframe (`data-running`) whether a run is in it: for a person in devtools, and specs. */
  running(busy: boolean): void
}

/** Opens a sandbox frame that can start workers running the given ES modules' texts, by name. */
export function openSandboxFrame(modules: Record<string, string>, parent: HTMLElement = document.body): Promise<SandboxFrame> {
  const frame = document.createElement('iframe')
  frame.setAttribute('sandbox', 'allow-scripts')
  frame.setAttribute('aria-hidden', 'true')
  frame.tabIndex = -1
  frame.title = 'fxterm code sandbox'
  frame.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden'
  frame.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${SANDBOX_CSP}"><script>${BOOTSTRAP}</script>`
  let closed = false
  let nextWorker = 1
  const workers = new Set<() => void>()
  // An opaque origin can only be addressed as '*'; the message goes to this frame's window.
  const post = (message: object, transfer: Transferable[] = []) => frame.contentWindow?.postMessage(message, '*', transfer)

  function startWorker(name: string): SandboxWorker {
    const id = nextWorker++
    const work = new MessageChannel()
    const status = new MessageChannel()
    let onCrash: (reason: string) => void = () => undefined
    const crashed = new Promise<string>((resolve) => (onCrash = resolve))
    status.port1.onmessage = (event) => {
      const message: unknown = event.data
      onCrash(typeof message === 'object' && message !== null && 'message' in message ? String(message.message) : 'the sandbox failed')
    }
    const forget = () => {
      workers.delete(forget)
      work.port1.close()
      status.port1.close()
      onCrash('closed')
    }
    workers.add(forget)
    if (closed) forget()
    else post({ type: 'fx-sandbox-worker', id, name, port: work.port2, status: status.port2 }, [work.port2, status.port2])
    return {
      port: work.port1,
      crashed,
      end() {
        if (!workers.has(forget)) return
        post({ type: 'fx-sandbox-end', id })
        forget()
      },
    }
  }

  const close = () => {
    if (closed) return
    closed = true
    window.removeEventListener('message', onReady)
    frame.remove()
    for (const forget of [...workers]) forget()
  }
  let onReady: (event: MessageEvent) => void = () => undefined
  const ready = new Promise<SandboxFrame>((resolve) => {
    onReady = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.data !== 'fx-sandbox-ready') return
      window.removeEventListener('message', onReady)
      for (const [name, source] of Object.entries(modules)) post({ type: 'fx-sandbox-module', name, source })
      resolve({ startWorker, close, running: (busy) => frame.toggleAttribute('data-running', busy) })
    }
  })
  window.addEventListener('message', onReady)
  parent.append(frame)
  return ready
}
