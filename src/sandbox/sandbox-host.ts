/**
 * Page side: runs code requests in the sandbox (sandbox-frame.ts), one at a time, and answers
 * the bash worker's CodeRunner calls. The sandbox is opened on the first run, never before,
 * and kept for the next runs (Pyodide stays loaded); cancelling a run tears it down, and the
 * next run opens a fresh one. The sandbox may ask only for the asset names it is given.
 */

import { concatBytes } from '../protocol/bytes'
import { openSandboxFrame, type SandboxFrame } from './sandbox-frame'
import { isFromSandbox, type ToSandbox } from './sandbox-messages'
import type { CodeRunReply, CodeRunner, RunRequest } from './runtime-types'

/** Output beyond this is dropped (and said so): the shell would cut it far earlier anyway. */
const OUTPUT_CAP_BYTES = 8 * 1024 * 1024

export type SandboxHostOptions = {
  /** The sandbox worker's source (an ES module's text). */
  workerSource(): Promise<string>
  /** Bytes of one of fxterm's own files the runtimes may load (Pyodide's), by name. */
  loadAsset(name: string): Promise<Uint8Array>
  /** A line for the person while a run prepares, e.g. 'Loading Python (first use)…'. */
  onProgress?(line: string): void
}

type Running = {
  id: number
  out: Uint8Array[]
  err: Uint8Array[]
  size: number
  finish(reply: CodeRunReply): void
}

export function createSandboxHost(options: SandboxHostOptions): CodeRunner & { prewarm(runtime?: 'python'): void; pythonReady(): Promise<void>; dispose(): void } {
  let frame: Promise<SandboxFrame> | null = null
  let running: Running | null = null
  let queue: Promise<unknown> = Promise.resolve()
  const assets = new Map<string, Promise<Uint8Array>>()
  /** Runs cancelled while still queued. */
  const cancelled = new Set<number>()
  /** The sandbox told to load Python ahead of its first run (a torn-down one forgets it). */
  let pythonPrepared: Promise<SandboxFrame> | null = null
  /** Callers of pythonReady waiting for the sandbox's `prepared`; a torn-down sandbox lets them go. */
  const readyWaiters = new Set<() => void>()
  const letReadyGo = () => {
    for (const go of readyWaiters) go()
    readyWaiters.clear()
  }
  /** Whether this sandbox has said Python is ready once (after that, only restores are waited for). */
  let pythonLoaded = false

  function open(): Promise<SandboxFrame> {
    if (frame) return frame
    const opening = options.workerSource().then((source) => withDeadline(openSandboxFrame(source)))
    frame = opening
    void opening.then(
      (opened) => {
        opened.port.onmessage = (event) => void receive(opened, event.data)
        void opened.crashed.then((reason) => {
          letReadyGo()
          pythonLoaded = false
          if (frame === opening) frame = null
          if (reason !== 'closed') stop('crashed', reason)
        })
      },
      () => {
        if (frame === opening) frame = null
      },
    )
    return opening
  }

  function stop(stopped: NonNullable<CodeRunReply['stopped']>, reason?: string): void {
    const run = running
    if (!run) return
    running = null
    run.finish({ exitCode: stopped === 'cancelled' ? 130 : 1, changes: {}, ...collected(run), stopped, ...(reason ? { reason } : {}) })
  }

  function teardown(): void {
    letReadyGo()
    pythonLoaded = false
    const closing = frame
    frame = null
    void closing?.then((opened) => opened.close(), () => undefined)
  }

  async function receive(opened: SandboxFrame, data: unknown): Promise<void> {
    if (!isFromSandbox(data)) return
    if (data.type === 'asset') {
      const reply = await asset(data.name).then(
        (bytes): ToSandbox => ({ type: 'asset', ask: data.ask, bytes }),
        (error: unknown): ToSandbox => ({ type: 'asset', ask: data.ask, error: error instanceof Error ? error.message : String(error) }),
      )
      opened.port.postMessage(reply)
      return
    }
    if (data.type === 'prepared') {
      pythonLoaded = true
      letReadyGo()
      return
    }
    if (data.type === 'failed') {
      teardown()
      stop('crashed', data.message)
      return
    }
    const run = running
    if (!run || data.id !== run.id) return
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

  function asset(name: string): Promise<Uint8Array> {
    let loading = assets.get(name)
    if (!loading) {
      loading = options.loadAsset(name)
      assets.set(name, loading)
      loading.catch(() => assets.delete(name))
    }
    return loading
  }

  async function runNow(id: number, request: RunRequest): Promise<CodeRunReply> {
    let opened: SandboxFrame
    try {
      opened = await open()
    } catch (error) {
      return unavailable(error instanceof Error ? error.message : String(error))
    }
    return new Promise<CodeRunReply>((finish) => {
      opened.running(true)
      running = {
        id,
        out: [],
        err: [],
        size: 0,
        finish: (reply) => {
          opened.running(false)
          finish(reply)
        },
      }
      opened.port.postMessage({ type: 'run', id, request } satisfies ToSandbox)
    })
  }

  return {
    run(id, request) {
      const reply = queue.then(() => (cancelled.delete(id) ? cancelledReply() : runNow(id, request)))
      queue = reply
      return reply
    },
    cancel(id) {
      if (running?.id === id) {
        teardown()
        stop('cancelled')
      } else cancelled.add(id)
    },
    /**
     * Opens the sandbox ahead of its first run (its frame and worker take a few hundred ms to
     * start); with 'python', also loads Python there (some seconds), once per sandbox.
     */
    prewarm(runtime) {
      const opening = open()
      if (runtime === 'python' && pythonPrepared !== opening) {
        pythonPrepared = opening
        void opening.then((opened) => opened.port.postMessage({ type: 'prepare', runtime } satisfies ToSandbox), () => undefined)
      }
      void opening.catch(() => undefined)
    },
    /**
     * Settles once the sandbox has a Python interpreter ready for the next run (or cannot have
     * one): a command's time limit starts after it, so starting Python never counts against it.
     */
    pythonReady() {
      // Said while it loads, whether this wait started the load or an earlier prepare did.
      if (!pythonLoaded) options.onProgress?.('Loading Python (first use)…')
      return new Promise<void>((resolve) => {
        readyWaiters.add(resolve)
        const opening = open()
        pythonPrepared = opening
        void opening.then((opened) => opened.port.postMessage({ type: 'prepare', runtime: 'python' } satisfies ToSandbox), letReadyGo)
      })
    },
    dispose() {
      teardown()
      stop('cancelled')
    },
  }
}

function collected(run: Running): { stdout: Uint8Array; stderr: Uint8Array } {
  return { stdout: concatBytes(run.out), stderr: concatBytes(run.err) }
}

const EMPTY = new Uint8Array(0)
const cancelledReply = (): CodeRunReply => ({ exitCode: 130, changes: {}, stdout: EMPTY, stderr: EMPTY, stopped: 'cancelled' })
const unavailable = (reason: string): CodeRunReply => ({ exitCode: 1, changes: {}, stdout: EMPTY, stderr: EMPTY, stopped: 'unavailable', reason })

/** The sandbox answers within moments, unless the page's own CSP forbids its frame or worker. */
const START_DEADLINE_MS = 10_000

function withDeadline(opening: Promise<SandboxFrame>): Promise<SandboxFrame> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error("the code sandbox did not start: this page's Content-Security-Policy may forbid its iframe (frame-src) or blob: workers")),
      START_DEADLINE_MS,
    )
  })
  void opening.then((opened) => {
    // Too late: nobody will use it.
    if (timer === undefined) opened.close()
  })
  return Promise.race([opening, late]).finally(() => {
    clearTimeout(timer)
    timer = undefined
  })
}
