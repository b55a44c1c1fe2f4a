/**
 * Page side: the walls around code the agent runs. A hidden iframe with `sandbox="allow-scripts"`
 * (no allow-same-origin, so its origin is opaque: no IndexedDB, OPFS, cookies or storage of this
 * origin, no reach into the page's DOM) whose CSP allows no network at all and no script but its
 * own bootstrap, blob: URLs, eval and wasm. The bootstrap starts a worker there (so a busy script
 * never blocks the page, and tearing the iframe down kills it) and hands it the one MessagePort
 * the page talks over. The worker is a classic one that imports the real worker module from a
 * blob: URL: module workers do not start in an opaque-origin frame in Chromium.
 */

/** Runs in the sandbox iframe; its SHA-256 is in the CSP (sandbox-frame.test.ts checks it). */
export const BOOTSTRAP = `let started = false
addEventListener('message', (event) => {
  const start = event.data
  if (started || event.source !== parent || !start || start.type !== 'fx-sandbox-start') return
  started = true
  const blob = (text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' }))
  const module = blob(start.source)
  const worker = new Worker(blob("onmessage = (event) => { onmessage = null; const port = event.ports[0]; import(event.data).then(() => self.fxSandboxStart(port), (error) => port.postMessage({ type: 'failed', message: String(error) })) }"))
  worker.onerror = (error) => start.status.postMessage({ type: 'crashed', message: error.message || 'the sandbox worker failed' })
  worker.postMessage(module, [start.port])
})
parent.postMessage('fx-sandbox-ready', '*')`

export const BOOTSTRAP_SHA256 = 'Z4Z80o6PQrIta7OmYsrBxWcGtAxbvHTpBBKhoiULHX8='

/** No network (connect, img, fonts, frames…), no script from anywhere but blob: and the bootstrap. */
export const SANDBOX_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${BOOTSTRAP_SHA256}' blob: 'unsafe-eval' 'wasm-unsafe-eval'`,
  'worker-src blob:',
].join('; ')

export type SandboxFrame = {
  /** To and from the sandbox worker. */
  port: MessagePort
  /** Resolves with a reason when the worker dies by itself (an uncaught error, a failed start). */
  crashed: Promise<string>
  /** Tears the iframe down, which terminates its worker. */
  close(): void
  /** Says on the iframe (`data-running`) whether a run is in it: for a person in devtools, and specs. */
  running(busy: boolean): void
}

/** Opens a sandbox whose worker runs `workerSource` (an ES module's text). */
export function openSandboxFrame(workerSource: string, parent: HTMLElement = document.body): Promise<SandboxFrame> {
  const frame = document.createElement('iframe')
  frame.setAttribute('sandbox', 'allow-scripts')
  frame.setAttribute('aria-hidden', 'true')
  frame.tabIndex = -1
  frame.title = 'fxterm code sandbox'
  frame.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden'
  frame.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${SANDBOX_CSP}"><script>${BOOTSTRAP}</script>`
  const work = new MessageChannel()
  const status = new MessageChannel()
  let closed = false
  let onCrash: (reason: string) => void = () => undefined
  const crashed = new Promise<string>((resolve) => (onCrash = resolve))
  status.port1.onmessage = (event) => {
    const message: unknown = event.data
    const text = typeof message === 'object' && message !== null && 'message' in message ? String(message.message) : 'the sandbox failed'
    onCrash(text)
  }
  const close = () => {
    if (closed) return
    closed = true
    window.removeEventListener('message', onReady)
    frame.remove()
    work.port1.close()
    status.port1.close()
    onCrash('closed')
  }
  let onReady: (event: MessageEvent) => void = () => undefined
  const ready = new Promise<SandboxFrame>((resolve) => {
    onReady = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.data !== 'fx-sandbox-ready') return
      window.removeEventListener('message', onReady)
      // An opaque origin can only be addressed as '*'; the message goes to this frame's window.
      frame.contentWindow!.postMessage({ type: 'fx-sandbox-start', source: workerSource, port: work.port2, status: status.port2 }, '*', [work.port2, status.port2])
      resolve({ port: work.port1, crashed, close, running: (busy) => frame.toggleAttribute('data-running', busy) })
    }
  })
  window.addEventListener('message', onReady)
  parent.append(frame)
  return ready
}
