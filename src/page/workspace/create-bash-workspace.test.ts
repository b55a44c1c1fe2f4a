import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBashWorkerApi } from '../../bash-worker/worker-api'
import type { BashWorkerApi } from '../../shared/messages/bash-worker-api'
import { createBashWorkspace, createBashWorkspaceWithSeams } from './create-bash-workspace'
import { runClockUntil, useFakeClock } from '../../../test/support/clock'
import { runCommandDescription } from './tool-description'
import { disposeOpened, execInput as input, openWorkspace as open } from '../../../test/support/workspaces'

afterEach(() => {
  disposeOpened()
  vi.useRealTimers()
})

describe('createBashWorkspace', () => {
  it('describes a version 1 sandboxed workspace with its tool description and starts no worker until used', () => {
    const { workspace, created } = open()
    expect({
      info: workspace.info,
      permission: workspace.permission,
      toolDescription: workspace.toolDescription,
    }).toEqual({
      info: {
        version: 1,
        root: '/workspace',
        cwd: '/workspace',
        home: '/home/user',
        gitAvailable: false,
        ephemeral: true,
        extensions: { git: true },
      },
      permission: 'allow-sandboxed',
      toolDescription: runCommandDescription({ runsCode: false, persists: false }),
    })
    expect(created.length).toBe(0)
  })

  it('refuses a command over 64 KiB without starting the worker', async () => {
    const { workspace, created } = open()
    const result = await workspace.exec(input(`echo ${'é'.repeat(40_000)}`))
    expect(result).toEqual({
      stdout: '',
      stderr: 'fxterm: command refused: it is 80,005 bytes of UTF-8; the limit is 65,536 bytes (64 KiB)\n',
      exitCode: 2,
      cwd: '/workspace',
    })
    expect(created.length).toBe(0)
  })

  it('runs commands in one worker whose files persist, seeded and written alike', async () => {
    const { workspace, created } = open({ files: { 'a.txt': 'A\n' }, env: { GREETING: 'hi' } })
    expect(await workspace.exec(input('ls; echo $GREETING > b.txt'))).toEqual({
      stdout: 'a.txt\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect(await workspace.exec(input('cat a.txt b.txt'))).toEqual({ stdout: 'A\nhi\n', stderr: '', exitCode: 0, cwd: '/workspace' })
    expect(await workspace.readFile({ path: '/workspace/b.txt' })).toBe('hi\n')
    expect(created.length).toBe(1)
  })

  it('returns the directory after cd and keeps exported variables for the next command', async () => {
    const { workspace } = open({ files: { 'src/main.ts': '' } })
    const first = await workspace.exec(input('cd src; export A=1'))
    expect(first).toEqual({ stdout: '', stderr: '', exitCode: 0, cwd: '/workspace/src' })
    expect(await workspace.exec(input('pwd; echo $A', { cwd: first.cwd ?? '' }))).toEqual({
      stdout: '/workspace/src\n1\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace/src',
    })
  })

  it('runs a command with side effects exactly once', async () => {
    const { workspace } = open()
    await workspace.exec(input('echo x >> log.txt; cd /tmp'))
    expect(await workspace.readFile({ path: 'log.txt' })).toBe('x\n')
  })

  it('answers 127 for a command that does not exist', async () => {
    const { workspace } = open()
    expect(await workspace.exec(input('gcc -v'))).toEqual({
      stdout: '',
      stderr: 'bash: gcc: command not found\n',
      exitCode: 127,
      cwd: '/workspace',
    })
  })

  it('turns a worker that throws into a result instead of a rejection', async () => {
    const failing = (): BashWorkerApi => ({
      ...createBashWorkerApi(),
      exec: () => Promise.reject(new Error('out of memory')),
    })
    const { workspace } = open({}, failing)
    expect(await workspace.exec(input('ls', { cwd: '/workspace/src' }))).toEqual({
      stdout: '',
      stderr: 'fxterm: out of memory\n',
      exitCode: 1,
      cwd: '/workspace/src',
    })
  })

  it('answers a malformed input with a result instead of throwing', async () => {
    const { workspace } = open()
    expect(await workspace.exec(null as unknown as Parameters<typeof workspace.exec>[0])).toEqual({
      stdout: '',
      stderr: "fxterm: Cannot read properties of null (reading 'cwd')\n",
      exitCode: 1,
      cwd: '/workspace',
    })
  })

  it('times out a waiting command with exit 124 and says so', async () => {
    const { workspace } = open()
    useFakeClock()
    expect((await runClockUntil(workspace.exec(input('sleep 5', { timeoutMs: 100 })))).value).toEqual({
      stdout: '',
      stderr: 'fxterm: command timed out after 100 ms\n',
      exitCode: 124,
      cwd: '/workspace',
    })
  })

  it('clamps the timeout to 1..30,000 ms and the output limit to 64 KiB before the worker sees them', async () => {
    const seen: Array<[number, number]> = []
    const recording = (): BashWorkerApi => {
      const real = createBashWorkerApi()
      return { ...real, exec: (id, request) => (seen.push([request.timeoutMs, request.outputLimitBytes]), real.exec(id, request)) }
    }
    const { workspace } = open({}, recording)
    for (const [timeoutMs, outputLimitBytes] of [[120_000, 1e9], [0, 100], [Number.NaN, Number.NaN]] as const) {
      await workspace.exec(input('true', { timeoutMs, outputLimitBytes }))
    }
    expect(seen).toEqual([
      [30_000, 65_536],
      [1, 100],
      [30_000, 65_536],
    ])
  })

  it('cancels sleep 5 within 200 ms of the abort and keeps the worker', async () => {
    const { workspace, created } = open()
    await workspace.exec(input('true')) // the worker is up, so only the cancel is timed
    useFakeClock()
    const controller = new AbortController()
    const running = workspace.exec(input('sleep 5', { signal: controller.signal }))
    setTimeout(() => controller.abort(), 50) // on the fake clock, as the sleep and the watchdog are
    const { value: result, clockMs } = await runClockUntil(running)
    expect(clockMs - 50).toBeLessThan(200)
    expect(result).toEqual({
      stdout: '',
      stderr: 'fxterm: command cancelled\n',
      exitCode: 130,
      cwd: '/workspace',
    })
    expect(created.map((worker) => worker.terminated)).toEqual([false])
  })

  it('returns cancelled at once for a signal aborted before the command starts', async () => {
    const { workspace, created } = open()
    expect(await workspace.exec(input('echo no', { signal: AbortSignal.abort() }))).toEqual({
      stdout: '',
      stderr: 'fxterm: command cancelled\n',
      exitCode: 130,
      cwd: '/workspace',
    })
    expect(created.length).toBe(0)
  })

  it('reports a worker that cannot start and tries again on the next command', async () => {
    let attempts = 0
    const workspace = createBashWorkspaceWithSeams({
      worker: () => {
        attempts++
        throw new Error('blocked by CSP')
      },
    })
    const failed = {
      stdout: '',
      stderr: 'fxterm: could not start the shell: blocked by CSP\n',
      exitCode: 1,
      cwd: '/workspace',
    }
    expect([await workspace.exec(input('ls')), await workspace.exec(input('ls'))]).toEqual([failed, failed])
    expect(attempts).toBe(2)
    workspace.dispose()
  })

  it('stops its worker on dispose and refuses commands afterwards', async () => {
    const { workspace, created } = open()
    await workspace.exec(input('true'))
    workspace.dispose()
    expect(await workspace.exec(input('ls'))).toEqual({
      stdout: '',
      stderr: 'fxterm: the workspace has been closed\n',
      exitCode: 1,
      cwd: '/workspace',
    })
    expect(await workspace.readFile({ path: 'x' })).toBe(null)
    await expect(workspace.listFiles()).rejects.toThrow('the workspace has been closed')
    expect(created.map((worker) => worker.terminated)).toEqual([true])
  })

  it('refuses a root that is not a normalized absolute path', () => {
    expect(() => createBashWorkspace({ cwd: '/workspace/' })).toThrow(
      "createBashWorkspace: root must not end with '/'",
    )
  })
})
