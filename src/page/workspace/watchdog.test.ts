import { Worker as NodeWorker } from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBashWorkerApi } from '../../bash-worker/worker-api'
import { createBashWorkspaceWithSeams } from './create-bash-workspace'
import { RESTART_LINE } from '../../shared/workspace/exec-result'
import { createInProcessWorker } from './in-process-worker'
import { runClockUntil, useFakeClock } from '../../../test/support/clock'
import { apiWithStuckCommand, disposeOpened, execInput as input, openWorkspace as open } from '../../../test/support/workspaces'

afterEach(() => {
  disposeOpened()
  vi.useRealTimers()
})

/**
 * A real thread whose `exec` spins forever without yielding: like a command stuck inside one
 * long builtin, it answers neither its deadline nor a cancel, so only terminating it stops it.
 */
const CPU_BOUND_WORKER = `
const { parentPort } = require('node:worker_threads')
const { expose } = require('comlink')
const nodeEndpoint = require('comlink/dist/umd/node-adapter.js')
expose({
  init: async () => ({ ok: true }),
  exec: async () => { for (;;) {} },
  cancel() {},
  readFile: async () => null,
}, nodeEndpoint(parentPort))
`

/**
 * `thread` dressed as the Web Worker that worker-connection.ts and comlink expect; `onPost` sees
 * every message sent to it.
 */
function asWebWorker(thread: NodeWorker, onPost: (message: unknown) => void = () => {}): Worker {
  // Node hands listeners the message itself; comlink reads it from a MessageEvent's `data`.
  const wrapped = new Map<EventListener, (data: unknown) => void>()
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => {
      onPost(message)
      thread.postMessage(message, transfer as never)
    },
    addEventListener: (type: string, listener: EventListener) => {
      if (type !== 'message') return
      const onMessage = (data: unknown) => listener({ data } as MessageEvent)
      wrapped.set(listener, onMessage)
      thread.on('message', onMessage)
    },
    removeEventListener: (type: string, listener: EventListener) => {
      const onMessage = wrapped.get(listener)
      if (type === 'message' && onMessage) thread.off('message', onMessage)
    },
    terminate: () => void thread.terminate(),
  } as unknown as Worker
}

describe('the watchdog', () => {
  it('stops a CPU-bound loop at its deadline and keeps the files from before it', async () => {
    const { workspace, created } = open()
    await workspace.exec(input('echo before > kept.txt'))
    // The watchdog's timer is on a clock that does not move here, so only just-bash's deadline
    // (read from Date, real) can stop the loop; a loop it missed would never return.
    useFakeClock()
    const result = await workspace.exec(input('while true; do :; done', { timeoutMs: 300 }))
    expect(result).toEqual({ stdout: '', stderr: 'fxterm: command timed out after 300 ms\n', exitCode: 124, cwd: '/workspace' })
    expect(await workspace.readFile({ path: 'kept.txt' })).toBe('before\n')
    // just-bash's deadline stopped it between statements, so the worker did not need replacing.
    expect(created.map((worker) => worker.terminated)).toEqual([false])
  })

  it('terminates a real thread spinning past its deadline within 1 s and restores the files in a fresh worker', async () => {
    const thread = new NodeWorker(CPU_BOUND_WORKER, { eval: true })
    const exit = new Promise<number>((resolve) => thread.once('exit', resolve))
    let execSent!: () => void
    const sent = new Promise<void>((resolve) => (execSent = resolve))
    const isExec = (message: unknown) => (message as { path?: unknown[] } | null)?.path?.[0] === 'exec'
    let spawned = 0
    useFakeClock()
    const workspace = createBashWorkspaceWithSeams({
      files: { 'before.txt': 'intact\n' },
      // The thread first; the replacement runs real just-bash in this thread.
      worker: () => (spawned++ === 0 ? asWebWorker(thread, (message) => isExec(message) && execSent()) : createInProcessWorker(createBashWorkerApi())),
    })
    try {
      let result: unknown = null
      const running = Promise.resolve(workspace.exec(input('while true; do :; done', { timeoutMs: 300 }))).then((value) => (result = value))
      // The watchdog starts as the command is sent (the thread's start-up comes before), and
      // fires 1 s after the 300 ms deadline.
      await sent
      await vi.advanceTimersByTimeAsync(1299)
      expect([result, spawned]).toEqual([null, 1])
      await vi.advanceTimersByTimeAsync(1)
      await running
      expect(result).toEqual({
        stdout: '',
        stderr: `${RESTART_LINE}\nfxterm: command timed out after 300 ms\n`,
        exitCode: 124,
        cwd: '/workspace',
      })
      const exited = await exit
      expect(await workspace.exec(input('cat before.txt'))).toEqual({ stdout: 'intact\n', stderr: '', exitCode: 0, cwd: '/workspace' })
      expect({ exited, spawned }).toEqual({ exited: 1, spawned: 2 })
    } finally {
      workspace.dispose()
      await thread.terminate()
    }
  })

  it('terminates a worker stuck past its timeout and restores files, uploads and variables in a new one', async () => {
    const { workspace, created } = open({ files: { 'seed.txt': 'S\n' }, graceMs: 50 }, () => apiWithStuckCommand())
    await workspace.exec(input('echo kept > kept.txt; export K=v'))
    await workspace.writeFiles([{ path: 'up/hi.txt', data: new TextEncoder().encode('uploaded\n') }])
    useFakeClock()
    const { value: stuck } = await runClockUntil(workspace.exec(input('hang', { timeoutMs: 50 })))
    vi.useRealTimers()
    expect(stuck).toEqual({
      stdout: '',
      stderr: `${RESTART_LINE}\nfxterm: command timed out after 50 ms\n`,
      exitCode: 124,
      cwd: '/workspace',
    })
    // The replacement is started at once, not on the next command.
    expect(created.map((worker) => worker.terminated)).toEqual([true, false])
    expect(await workspace.exec(input('cat seed.txt kept.txt up/hi.txt; echo $K'))).toEqual({
      stdout: 'S\nkept\nuploaded\nv\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect(created.length).toBe(2)
  })

  it('terminates a worker that ignores cancel once the grace period is over', async () => {
    const controller = new AbortController()
    // Cancelled once the command runs in the worker, so it is the running command that ignores it.
    const { workspace, created } = open({ graceMs: 50 }, () => apiWithStuckCommand(() => controller.abort()))
    useFakeClock()
    const running = workspace.exec(input('hang', { signal: controller.signal, cwd: '/workspace/sub' }))
    expect((await runClockUntil(running)).value).toEqual({
      stdout: '',
      stderr: `${RESTART_LINE}\nfxterm: command cancelled\n`,
      exitCode: 130,
      cwd: '/workspace/sub',
    })
    expect(created.map((worker) => worker.terminated)).toEqual([true, false])
  })
})
