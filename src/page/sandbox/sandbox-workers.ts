/**
 * Page side: which sandbox worker a run goes to. One frame (sandbox-frame.ts) holds them all:
 * - `node`: a worker per run. Spares, their modules loaded, wait for the next runs; a run takes
 *   one and the next spare starts at once. Once the run is over the host ends the used worker,
 *   so nothing a run leaves (globals, hooks, timers, files in its memory) reaches the next.
 * - `python`: one worker for the frame's life (Pyodide loads once), apart from node's realms.
 * `teardown()` closes the frame — every worker, any running code, any pending timer — and the
 * next run opens a new one: after a cancel, a crash, or a switch of session.
 */

import { openSandboxFrame, type SandboxFrame, type SandboxWorker } from './sandbox-frame'
import type { RunRequest } from '../../shared/sandbox/runtime-types'

type Runtime = RunRequest['runtime']

export type SandboxWorkersOptions = {
  /** The worker modules' sources (ES modules' texts), by runtime. */
  modules(): Promise<Record<Runtime, string>>
  /** Told of each worker as it starts, before any message can reach it: wire its port here. */
  started(worker: SandboxWorker, runtime: Runtime): void
  /** Opens the frame (sandbox-frame.ts's; tests give a stand-in). */
  openFrame?: typeof openSandboxFrame
}

export type SandboxWorkers = {
  /** The frame and a worker for one run of `runtime` (opening the frame if there is none). */
  take(runtime: Runtime): Promise<{ frame: SandboxFrame; worker: SandboxWorker }>
  /** Opens the frame and a spare node worker (if there is none) ahead of a run; 'python' starts Python's worker too. */
  prewarm(runtime?: 'python'): Promise<SandboxWorker | null>
  /** Closes the frame with all its workers. */
  teardown(): void
}

export function createSandboxWorkers(options: SandboxWorkersOptions): SandboxWorkers {
  let frame: Promise<SandboxFrame> | null = null
  /** Node workers no run has had, oldest (most likely ready) first. */
  let spares: SandboxWorker[] = []
  let python: SandboxWorker | null = null

  function open(): Promise<SandboxFrame> {
    if (frame) return frame
    const openFrame = options.openFrame ?? openSandboxFrame
    const opening = options.modules().then((modules) => withDeadline(openFrame(modules)))
    frame = opening
    opening.catch(() => {
      if (frame === opening) frame = null
    })
    return opening
  }

  function start(opened: SandboxFrame, runtime: Runtime): SandboxWorker {
    const worker = opened.startWorker(runtime)
    options.started(worker, runtime)
    void worker.crashed.then((reason) => {
      // An uncaught error in a worker does not end it: it must not serve another run.
      if (reason !== 'closed') worker.end()
      spares = spares.filter((kept) => kept !== worker)
      if (python === worker) python = null
    })
    return worker
  }

  function topUp(opened: SandboxFrame): void {
    while (spares.length < NODE_SPARES) spares.push(start(opened, 'node'))
  }

  async function take(runtime: Runtime): Promise<{ frame: SandboxFrame; worker: SandboxWorker }> {
    const opening = open()
    const opened = await opening
    if (runtime === 'python') return { frame: opened, worker: (python ??= start(opened, 'python')) }
    const worker = spares.shift() ?? start(opened, 'node')
    // The next spare starts now, beside this run: a worker takes longer to start and load its
    // modules than a short run and the round trip to the next command.
    topUp(opened)
    return { frame: opened, worker }
  }

  return {
    take,
    async prewarm(runtime) {
      const opened = await open()
      // Python's worker first: its load is the longer wait.
      if (runtime === 'python') python ??= start(opened, 'python')
      topUp(opened)
      return runtime === 'python' ? python : null
    },
    teardown() {
      const closing = frame
      frame = null
      spares = []
      python = null
      void closing?.then((opened) => opened.close(), () => undefined)
    },
  }
}

/**
 * Node workers kept ready. Two, so that runs in quick succession (a script run again and again)
 * still find one ready while the next loads: a worker takes longer to start and load its
 * modules than a short run and the round trip to the next command.
 */
const NODE_SPARES = 2

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
