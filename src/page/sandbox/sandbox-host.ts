/**
 * Page side: runs code requests in the sandbox, one at a time, and answers the bash worker's
 * CodeRunner calls. Which worker a run goes to is sandbox-workers.ts's job: a fresh one per
 * `node` run (ended here once the run is over), Python's own for `python3`. Cancelling a run,
 * and a switch of session (`resetSession`), tear the whole frame down; a run in flight then
 * answers `stopped: 'cancelled'` with no changes, and runs queued before it never start. The
 * sandbox may ask only for the asset names it is given.
 */

import { concatBytes } from '../../shared/protocol/bytes'
import type { SandboxWorker } from './sandbox-frame'
import { isFromSandbox, type ToSandbox } from '../../shared/messages/sandbox-messages'
import { createSandboxWorkers, type SandboxWorkersOptions } from './sandbox-workers'
import type { CodeRunReply, CodeRunner, RunRequest } from '../../shared/sandbox/runtime-types'

/** Output beyond this is dropped (and said so): the shell would cut it far earlier anyway. */
const OUTPUT_CAP_BYTES = 8 * 1024 * 1024

export type SandboxHostOptions = {
  /** The worker modules' sources (ES modules' texts), by runtime. */
  workerSources(): Promise<Record<RunRequest['runtime'], string>>
  /**
   * One of fxterm's own files the runtimes may load (Pyodide's), by name, as a Blob: handed to
   * the sandbox by reference, its bytes never pass through this page's thread.
   */
  loadAsset(name: string): Promise<Blob>
  /** The names of the files Python's first load asks for: fetched as soon as Python is to load. */
  pythonAssets?(): Promise<readonly string[]>
  /** A line for the person while a run prepares, e.g. 'Loading Python (first use)…'. */
  onProgress?(line: string): void
  /** Opens the sandbox frame (sandbox-frame.ts's; tests give a stand-in). */
  openFrame?: SandboxWorkersOptions['openFrame']
}

export type SandboxHost = CodeRunner & {
  /** Starts what a run will need; settles once it is up (with 'python', Python loaded, or not loadable). */
  prewarm(runtime?: 'python'): Promise<void>
  /** Settles once a Python interpreter is ready for the next run (loading Python first if need be). */
  pythonReady(): Promise<void>
  /** Another session is now in use: nothing running or left by this one's code may reach it. */
  resetSession(): void
  dispose(): void
}

type Running = {
  id: number
  worker: SandboxWorker
  out: Uint8Array[]
  err: Uint8Array[]
  size: number
  finish(reply: CodeRunReply): void
}

export function createSandboxHost(options: SandboxHostOptions): SandboxHost {
  let running: Running | null = null
  let queue: Promise<unknown> = Promise.resolve()
  const assets = new Map<string, Promise<Blob>>()
  /** Runs cancelled while still queued. */
  const cancelled = new Set<number>()
  /** Counts teardowns: a run queued or opening before one is not started after it. */
  let generation = 0
  /** Callers of pythonReady waiting for the sandbox's `prepared`; a torn-down sandbox lets them go. */
  const readyWaiters = new Set<() => void>()
  const letReadyGo = () => {
    for (const go of readyWaiters) go()
    readyWaiters.clear()
  }
  /** Whether Python's worker has said once that it is ready (after that, only restores are waited for). */
  let pythonLoaded = false
  /** The Python worker told to load ahead of its first run (a new one must be told again). */
  let pythonPrepared: SandboxWorker | null = null
  const workers = createSandboxWorkers({
    modules: options.workerSources,
    ...(options.openFrame ? { openFrame: options.openFrame } : {}),
    started(worker, runtime) {
      worker.port.onmessage = (event) => void receive(worker, event.data)
      void worker.crashed.then((reason) => {
        if (runtime === 'python') {
          pythonLoaded = false
          letReadyGo()
        }
        if (reason !== 'closed' && running?.worker === worker) stop('crashed', reason)
      })
    },
  })

  /** Tells Python's worker to have an interpreter ready (loading Python the first time). */
  function preparePython(always: boolean): void {
    void workers.take('python').then(({ worker }) => {
      if (!always && pythonPrepared === worker) return
      pythonPrepared = worker
      worker.port.postMessage({ type: 'prepare', runtime: 'python' } satisfies ToSandbox)
    }, letReadyGo)
  }

  function stop(stopped: NonNullable<CodeRunReply['stopped']>, reason?: string): void {
    const run = running
    if (!run) return
    running = null
    run.finish({ exitCode: stopped === 'cancelled' ? 130 : 1, changes: {}, ...collected(run), stopped, ...(reason ? { reason } : {}) })
  }

  function teardown(): void {
    generation++
    pythonLoaded = false
    pythonPrepared = null
    letReadyGo()
    workers.teardown()
    stop('cancelled')
  }

  async function receive(worker: SandboxWorker, data: unknown): Promise<void> {
    if (!isFromSandbox(data)) return
    if (data.type === 'asset') {
      const reply = await asset(data.name).then(
        (blob): ToSandbox => ({ type: 'asset', ask: data.ask, blob }),
        (error: unknown): ToSandbox => ({ type: 'asset', ask: data.ask, error: error instanceof Error ? error.message : String(error) }),
      )
      worker.port.postMessage(reply)
      return
    }
    if (data.type === 'prepared') {
      pythonLoaded = true
      letReadyGo()
      return
    }
    if (data.type === 'failed') {
      worker.end()
      if (running?.worker === worker) stop('crashed', data.message)
      return
    }
    const run = running
    if (!run || run.worker !== worker || data.id !== run.id) return
    if (data.type === 'progress') options.onProgress?.(data.line)
    else if (data.type === 'output') {
      if (run.size >= OUTPUT_CAP_BYTES) return
      const bytes = data.bytes.subarray(0, OUTPUT_CAP_BYTES - run.size)
      run.size += bytes.length
      ;(data.fd === 1 ? run.out : run.err).push(bytes)
      if (run.size >= OUTPUT_CAP_BYTES) run.err.push(new TextEncoder().encode('\nfxterm: the output passed 8 MB; the rest was dropped\n'))
    } else if (data.type === 'done') {
      running = null
      run.finish({ ...data.result, ...collected(run) })
    }
  }

  /**
   * Python's files start downloading with Python's load, not once its worker asks: the frame and
   * the worker take a while to start, and the download takes longest.
   */
  function fetchPythonAssets(): void {
    void options.pythonAssets?.().then((names) => names.forEach((name) => void asset(name).catch(() => undefined)), () => undefined)
  }

  function asset(name: string): Promise<Blob> {
    let loading = assets.get(name)
    if (!loading) {
      loading = options.loadAsset(name)
      assets.set(name, loading)
      loading.catch(() => assets.delete(name))
    }
    return loading
  }

  async function runNow(id: number, request: RunRequest, queuedIn: number): Promise<CodeRunReply> {
    if (cancelled.delete(id) || queuedIn !== generation) return cancelledReply()
    let taken: Awaited<ReturnType<typeof workers.take>>
    try {
      taken = await workers.take(request.runtime)
    } catch (error) {
      return unavailable(error instanceof Error ? error.message : String(error))
    }
    // Torn down while the frame opened: the frame it got is gone.
    if (queuedIn !== generation || cancelled.delete(id)) return cancelledReply()
    const { frame, worker } = taken
    return new Promise<CodeRunReply>((finish) => {
      frame.running(true)
      running = {
        id,
        worker,
        out: [],
        err: [],
        size: 0,
        finish: (reply) => {
          frame.running(false)
          if (request.runtime === 'node') {
            // A node realm serves one run: whatever its code left behind goes with it. The next
            // spare started as this run took its worker; one starts now if a spare crashed
            // (after a teardown, with the next frame instead).
            worker.end()
            if (queuedIn === generation) void workers.prewarm().catch(() => undefined)
          }
          finish(reply)
        },
      }
      worker.port.postMessage({ type: 'run', id, request } satisfies ToSandbox)
    })
  }

  return {
    run(id, request) {
      const queuedIn = generation
      const reply = queue.then(() => runNow(id, request, queuedIn))
      queue = reply
      return reply
    },
    cancel(id) {
      if (running?.id === id) teardown()
      else cancelled.add(id)
    },
    /**
     * Opens the sandbox and a spare node worker ahead of the first run (they take a few hundred
     * ms to start); with 'python', also loads Python in its worker (some seconds), once per frame.
     */
    prewarm(runtime) {
      if (runtime === 'python') fetchPythonAssets()
      const started = workers.prewarm(runtime).then(
        () => undefined,
        () => undefined,
      )
      if (runtime !== 'python') return started
      preparePython(false)
      return pythonLoaded ? started : new Promise<void>((resolve) => readyWaiters.add(resolve))
    },
    /**
     * Settles once the sandbox has a Python interpreter ready for the next run (or cannot have
     * one): a command's time limit starts after it, so starting Python never counts against it.
     */
    pythonReady() {
      // Said while it loads, whether this wait started the load or an earlier prepare did.
      if (!pythonLoaded) options.onProgress?.('Loading Python (first use)…')
      fetchPythonAssets()
      return new Promise<void>((resolve) => {
        readyWaiters.add(resolve)
        preparePython(true)
      })
    },
    resetSession: teardown,
    dispose: teardown,
  }
}

function collected(run: Running): { stdout: Uint8Array; stderr: Uint8Array } {
  return { stdout: concatBytes(run.out), stderr: concatBytes(run.err) }
}

const EMPTY = new Uint8Array(0)
const cancelledReply = (): CodeRunReply => ({ exitCode: 130, changes: {}, stdout: EMPTY, stderr: EMPTY, stopped: 'cancelled' })
const unavailable = (reason: string): CodeRunReply => ({ exitCode: 1, changes: {}, stdout: EMPTY, stderr: EMPTY, stopped: 'unavailable', reason })
