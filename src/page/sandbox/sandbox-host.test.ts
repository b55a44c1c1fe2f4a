import { describe, expect, it } from 'vitest'
import type { SandboxFrame, SandboxWorker } from './sandbox-frame'
import { createSandboxHost } from './sandbox-host'
import type { FromSandbox, ToSandbox } from '../../shared/messages/sandbox-messages'
import type { RunRequest } from '../../shared/sandbox/runtime-types'

/** A worker the test plays: it sees each message the page sends it and answers when told. */
type FakeWorker = { frame: number; name: string; runs: number[]; assets: Map<number, Blob>; ended: boolean; reply(message: FromSandbox): void }

/** Stand-in frames: each records the workers it started; `closed` says which frames were closed. */
function fakeFrames() {
  const workers: FakeWorker[] = []
  const closed: number[] = []
  let frames = 0
  const openFrame = async (): Promise<SandboxFrame> => {
    const frame = ++frames
    let isClosed = false
    const made: Array<{ fake: FakeWorker; crash(reason: string): void }> = []
    return {
      startWorker(name): SandboxWorker {
        const channel = new MessageChannel()
        let crash: (reason: string) => void = () => undefined
        const fake: FakeWorker = { frame, name, runs: [], assets: new Map(), ended: isClosed, reply: (message) => channel.port2.postMessage(message) }
        channel.port2.onmessage = (event: MessageEvent<ToSandbox>) => {
          if (event.data.type === 'run') fake.runs.push(event.data.id)
          if (event.data.type === 'asset' && 'blob' in event.data) fake.assets.set(event.data.ask, event.data.blob)
        }
        workers.push(fake)
        made.push({ fake, crash: (reason) => crash(reason) })
        return {
          port: channel.port1,
          crashed: new Promise((resolve) => (crash = resolve)),
          end() {
            fake.ended = true
            crash('closed')
          },
        }
      },
      close() {
        isClosed = true
        closed.push(frame)
        for (const { fake, crash } of made) (fake.ended = true), crash('closed')
      },
      running: () => undefined,
    }
  }
  return { openFrame, workers, closed }
}

const request = (runtime: RunRequest['runtime']): RunRequest => ({ runtime, argv: ['-e', '1'], cwd: '/workspace', root: '/workspace', env: {}, files: {} })
const wrote = (text: string) => ({ '/workspace/out.txt': new TextEncoder().encode(text) })

function setUp() {
  const frames = fakeFrames()
  const host = createSandboxHost({ workerSources: async () => ({ node: 'node', python: 'python' }), loadAsset: async () => new Blob(), openFrame: frames.openFrame })
  /** The worker that received run `id`, once it has. */
  const workerOf = async (id: number): Promise<FakeWorker> => {
    for (;;) {
      const found = frames.workers.find((worker) => worker.runs.includes(id))
      if (found) return found
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return { ...frames, host, workerOf }
}

describe('the sandbox host', () => {
  it('gives each node run a worker of its own and ends it after the run, with spares ready for the next', async () => {
    const { host, workerOf, workers } = setUp()
    const first = host.run(1, request('node'))
    const one = await workerOf(1)
    one.reply({ type: 'done', id: 1, result: { exitCode: 0, changes: wrote('one') } })
    expect(await first).toMatchObject({ exitCode: 0, changes: wrote('one') })
    expect(one.ended).toBe(true)

    const second = host.run(2, request('node'))
    const two = await workerOf(2)
    two.reply({ type: 'done', id: 2, result: { exitCode: 0, changes: {} } })
    await second
    expect(two).not.toBe(one)
    expect(two.runs).toEqual([2])
    // Two spares, started as runs took theirs, untouched by any run.
    expect(workers.filter((worker) => worker.name === 'node' && !worker.ended).map((worker) => worker.runs)).toEqual([[], []])
  })

  it('keeps two spares, and starts the next as a run takes one, not after the run', async () => {
    const { host, workerOf, workers } = setUp()
    host.prewarm()
    const spares = () => workers.filter((worker) => worker.name === 'node' && !worker.ended && worker.runs.length === 0).length
    await new Promise((resolve) => setImmediate(resolve))
    expect(spares()).toBe(2)
    const first = host.run(1, request('node'))
    const one = await workerOf(1)
    // Run 1 is still going: two spares already wait beside it.
    expect({ started: workers.length, spares: spares() }).toEqual({ started: 3, spares: 2 })
    one.reply({ type: 'done', id: 1, result: { exitCode: 0, changes: {} } })
    await first
    expect({ started: workers.length, spares: spares(), ended: one.ended }).toEqual({ started: 3, spares: 2, ended: true })
  })

  it('runs python in its own worker, kept between python runs and apart from node', async () => {
    const { host, workerOf } = setUp()
    for (const id of [1, 2]) {
      const reply = host.run(id, request('python'))
      ;(await workerOf(id)).reply({ type: 'done', id, result: { exitCode: 0, changes: {} } })
      await reply
    }
    const reply = host.run(3, request('node'))
    const node = await workerOf(3)
    node.reply({ type: 'done', id: 3, result: { exitCode: 0, changes: {} } })
    await reply
    const python = await workerOf(1)
    expect({ python: python.name, runs: python.runs, ended: python.ended, node: node.name }).toEqual({ python: 'python', runs: [1, 2], ended: false, node: 'node' })
  })

  it('on a switch of session closes the frame: the run in flight answers cancelled with no changes, and a late done is dropped', async () => {
    const { host, workerOf, closed, workers } = setUp()
    const inFlight = host.run(1, request('node'))
    const queued = host.run(2, request('node'))
    const worker = await workerOf(1)
    host.resetSession()
    worker.reply({ type: 'done', id: 1, result: { exitCode: 0, changes: wrote('late') } })
    expect(await inFlight).toMatchObject({ exitCode: 130, changes: {}, stopped: 'cancelled' })
    // Queued before the switch: never started after it.
    expect(await queued).toMatchObject({ exitCode: 130, changes: {}, stopped: 'cancelled' })
    expect(closed).toEqual([1])
    expect(workers.every((started) => started.ended)).toBe(true)

    // The next run opens a new frame.
    const next = host.run(3, request('node'))
    const fresh = await workerOf(3)
    fresh.reply({ type: 'done', id: 3, result: { exitCode: 0, changes: {} } })
    await next
    expect(fresh.frame).toBe(2)
  })

  it("says a Python prewarm is done only once Python's worker has an interpreter ready", async () => {
    const { host, workers } = setUp()
    let settled = false
    const prewarmed = host.prewarm('python').then(() => (settled = true))
    for (;;) {
      if (workers.some((worker) => worker.name === 'python')) break
      await new Promise((resolve) => setImmediate(resolve))
    }
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(false)
    workers.find((worker) => worker.name === 'python')!.reply({ type: 'prepared', runtime: 'python' })
    await prewarmed
    expect(settled).toBe(true)
    // Loaded once: the next prewarm has nothing to wait for.
    await host.prewarm('python')
  })

  it("starts Python's downloads with Python's load, before its frame and worker are up, and fetches each file once", async () => {
    const frames = fakeFrames()
    let openFrame: () => void = () => undefined
    const frameAsked = new Promise<void>((resolve) => (openFrame = resolve))
    const fetched: string[] = []
    const host = createSandboxHost({
      workerSources: async () => ({ node: 'node', python: 'python' }),
      loadAsset: async (name) => (fetched.push(name), new Blob([new Uint8Array([1])])),
      pythonAssets: async () => ['pyodide.asm.wasm', 'python-snapshot.bin'],
      // The frame opens only once the test says so: the downloads must not wait for it.
      openFrame: async () => (await frameAsked, frames.openFrame()),
    })
    host.prewarm('python')
    await new Promise((resolve) => setImmediate(resolve))
    expect({ fetched, workers: frames.workers.length }).toEqual({ fetched: ['pyodide.asm.wasm', 'python-snapshot.bin'], workers: 0 })

    openFrame()
    const ready = host.pythonReady()
    for (;;) {
      if (frames.workers.some((worker) => worker.name === 'python')) break
      await new Promise((resolve) => setImmediate(resolve))
    }
    const python = frames.workers.find((worker) => worker.name === 'python')!
    // The worker's own ask is answered from the same download, with the file as it was fetched.
    python.reply({ type: 'asset', ask: 1, name: 'pyodide.asm.wasm' })
    while (!python.assets.has(1)) await new Promise((resolve) => setImmediate(resolve))
    expect([...new Uint8Array(await python.assets.get(1)!.arrayBuffer())]).toEqual([1])
    python.reply({ type: 'prepared', runtime: 'python' })
    await ready
    expect(fetched).toEqual(['pyodide.asm.wasm', 'python-snapshot.bin'])
  })
})
