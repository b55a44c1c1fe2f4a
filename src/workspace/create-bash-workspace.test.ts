import { afterEach, describe, expect, it } from 'vitest'
import type { ExecInput } from '../protocol/workspace'
import { createBashWorkerApi, type BashWorkerApi } from './bash-worker-api'
import { createBashWorkspace, type BashWorkspace, type BashWorkspaceOptions } from './create-bash-workspace'
import { RESTART_LINE } from './exec-result'
import { createInProcessWorker, type InProcessWorker } from './in-process-worker'

const opened: BashWorkspace[] = []
afterEach(() => {
  for (const workspace of opened.splice(0)) workspace.dispose()
})

/** A workspace whose workers run `makeApi()` in this thread; `created` lists them. */
function open(options: BashWorkspaceOptions = {}, makeApi: () => BashWorkerApi = createBashWorkerApi) {
  const created: InProcessWorker[] = []
  const workspace = createBashWorkspace({
    ...options,
    worker: () => {
      const worker = createInProcessWorker(makeApi())
      created.push(worker)
      return worker
    },
  })
  opened.push(workspace)
  return { workspace, created }
}

/** A worker API whose `hang` command never finishes and ignores cancel, like a stuck builtin. */
function apiWithStuckCommand(): BashWorkerApi {
  const real = createBashWorkerApi()
  return {
    ...real,
    exec: (id, input) => (input.command === 'hang' ? new Promise(() => {}) : real.exec(id, input)),
  }
}

function input(command: string, overrides: Partial<ExecInput> = {}): ExecInput {
  return {
    command,
    cwd: '/workspace',
    signal: new AbortController().signal,
    timeoutMs: 30_000,
    outputLimitBytes: 65_536,
    ...overrides,
  }
}

describe('createBashWorkspace', () => {
  it('describes a version 1 sandboxed workspace and starts no worker until used', () => {
    const { workspace, created } = open()
    expect({ info: workspace.info, permission: workspace.permission }).toEqual({
      info: {
        version: 1,
        root: '/workspace',
        cwd: '/workspace',
        home: '/home/user',
        gitAvailable: false,
        ephemeral: true,
      },
      permission: 'allow-sandboxed',
    })
    expect(created.length).toBe(0)
  })

  it('reads seed files without starting the worker', async () => {
    const { workspace, created } = open({ files: { 'AGENTS.md': '# rules\n' } })
    expect([await workspace.readFile('AGENTS.md'), await workspace.readFile('none')]).toEqual(['# rules\n', null])
    expect(created.length).toBe(0)
  })

  it('refuses a command over 64 KiB without starting the worker', async () => {
    const { workspace, created } = open()
    const result = await workspace.exec(input(`echo ${'é'.repeat(40_000)}`))
    expect(result).toEqual({
      stdout: '',
      stderr: 'fxterm: command refused: it is 80,005 bytes of UTF-8; the limit is 65,536 bytes (64 KiB)\n',
      exitCode: 2,
    })
    expect(created.length).toBe(0)
  })

  it('runs commands in one worker whose files persist, seeded and written alike', async () => {
    const { workspace, created } = open({ files: { 'a.txt': 'A\n' }, env: { GREETING: 'hi' } })
    expect(await workspace.exec(input('ls; echo $GREETING > b.txt'))).toEqual({ stdout: 'a.txt\n', stderr: '', exitCode: 0 })
    expect(await workspace.exec(input('cat a.txt b.txt'))).toEqual({ stdout: 'A\nhi\n', stderr: '', exitCode: 0 })
    expect(await workspace.readFile('/workspace/b.txt')).toBe('hi\n')
    expect(created.length).toBe(1)
  })

  it('cancels a running command through its signal and keeps the worker', async () => {
    const { workspace, created } = open()
    const controller = new AbortController()
    const running = workspace.exec(input('sleep 10', { signal: controller.signal }))
    setTimeout(() => controller.abort(), 50) // the stimulus, not a wait
    expect(await running).toEqual({
      stdout: '',
      stderr: 'bash: execution aborted\nfxterm: command cancelled\n',
      exitCode: 130,
    })
    expect(created.map((worker) => worker.terminated)).toEqual([false])
  })

  it('terminates a worker stuck past its timeout and restores the files in a new one', async () => {
    const { workspace, created } = open({ files: { 'seed.txt': 'S\n' }, graceMs: 50 }, apiWithStuckCommand)
    await workspace.exec(input('echo kept > kept.txt'))
    expect(await workspace.exec(input('hang', { timeoutMs: 50 }))).toEqual({
      stdout: '',
      stderr: `${RESTART_LINE}\nfxterm: command timed out after 50 ms\n`,
      exitCode: 124,
    })
    expect(await workspace.exec(input('cat seed.txt kept.txt'))).toEqual({
      stdout: 'S\nkept\n',
      stderr: '',
      exitCode: 0,
    })
    expect(created.map((worker) => worker.terminated)).toEqual([true, false])
  })

  it('terminates a worker that ignores cancel once the grace period is over', async () => {
    const { workspace, created } = open({ graceMs: 50 }, apiWithStuckCommand)
    const controller = new AbortController()
    const running = workspace.exec(input('hang', { signal: controller.signal }))
    setTimeout(() => controller.abort(), 20)
    expect(await running).toEqual({
      stdout: '',
      stderr: `${RESTART_LINE}\nfxterm: command cancelled\n`,
      exitCode: 130,
    })
    expect(created.map((worker) => worker.terminated)).toEqual([true])
  })

  it('returns cancelled at once for a signal aborted before the command starts', async () => {
    const { workspace, created } = open()
    expect(await workspace.exec(input('echo no', { signal: AbortSignal.abort() }))).toEqual({
      stdout: '',
      stderr: 'fxterm: command cancelled\n',
      exitCode: 130,
    })
    expect(created.length).toBe(0)
  })

  it('reports a worker that cannot start and tries again on the next command', async () => {
    let attempts = 0
    const workspace = createBashWorkspace({
      worker: () => {
        attempts++
        throw new Error('blocked by CSP')
      },
    })
    opened.push(workspace)
    const failed = { stdout: '', stderr: 'fxterm: could not start the shell: blocked by CSP\n', exitCode: 1 }
    expect([await workspace.exec(input('ls')), await workspace.exec(input('ls'))]).toEqual([failed, failed])
    expect(attempts).toBe(2)
  })

  it('stops its worker on dispose and refuses commands afterwards', async () => {
    const { workspace, created } = open()
    await workspace.exec(input('true'))
    workspace.dispose()
    expect(await workspace.exec(input('ls'))).toEqual({
      stdout: '',
      stderr: 'fxterm: the workspace has been closed\n',
      exitCode: 1,
    })
    expect(await workspace.readFile('x')).toBe(null)
    expect(created.map((worker) => worker.terminated)).toEqual([true])
  })

  it('refuses a root that is not a normalized absolute path', () => {
    expect(() => createBashWorkspace({ cwd: '/workspace/' })).toThrow(
      "createBashWorkspace: root must not end with '/'",
    )
  })
})
