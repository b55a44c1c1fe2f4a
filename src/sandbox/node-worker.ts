/**
 * The `node` worker's entry, inside the opaque-origin frame (sandbox-frame.ts). The page gives
 * each run a worker of its own and throws it away after the run, so every run starts in a fresh
 * realm; this module loads (Node's ports included) before the run is sent, while the worker
 * waits as the spare.
 */

// First: the ports of Node's modules read `process` as they load.
import './node/process-shim'
import { createNodeRuntime } from './node/run-node'
import { serveRuntime } from './worker-protocol'

// Workers of one frame share its origin, so a BroadcastChannel would reach the Python worker
// and the spare that runs next. A run needs none: it is taken away before any user code runs.
delete (globalThis as { BroadcastChannel?: unknown }).BroadcastChannel

;(self as unknown as { fxSandboxStart(port: MessagePort): void }).fxSandboxStart = (port) => serveRuntime(port, () => createNodeRuntime())
