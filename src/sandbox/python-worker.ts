/**
 * The `python3` worker's entry, inside the opaque-origin frame (sandbox-frame.ts): a worker of
 * its own, apart from `node` runs, kept for the frame's life so Pyodide loads once; the page
 * ends it (and the whole frame) on a session switch, a cancel or a crash.
 */

import { createPythonRuntime } from './python/run-python'
import { serveRuntime } from './worker-protocol'

// As in node-worker.ts: no channel to the frame's other workers.
delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel

;(self as unknown as { fxSandboxStart(port: MessagePort): void }).fxSandboxStart = (port) => serveRuntime(port, () => createPythonRuntime())
