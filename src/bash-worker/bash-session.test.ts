import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBashSession, type SessionExecInput } from './bash-session'
import type { SnapshotEntry } from '../shared/messages/bash-worker-api'
import { runClockUntil, useFakeClock } from '../../test/support/clock'

afterEach(() => vi.useRealTimers())

const seed: Array<[string, SnapshotEntry]> = [
  ['/workspace/README.md', { kind: 'file', content: '# demo\n' }],
  ['/workspace/src/main.ts', { kind: 'file', content: 'export {}\n' }],
]

function input(command: string, overrides: Partial<SessionExecInput> = {}): SessionExecInput {
  return { command, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 65_536, ...overrides }
}

describe('bash session', () => {
  it('runs ls in the workspace root', async () => {
    const session = await createBashSession({ entries: seed })
    expect(await session.exec(input('ls'))).toEqual({ stdout: 'README.md\nsrc\n', stderr: '', exitCode: 0, cwd: '/workspace' })
  })

  it('keeps files written by one command for the next', async () => {
    const session = await createBashSession()
    expect(await session.exec(input('echo hi > a.txt'))).toEqual({ stdout: '', stderr: '', exitCode: 0, cwd: '/workspace' })
    expect(await session.exec(input('cat a.txt'))).toEqual({ stdout: 'hi\n', stderr: '', exitCode: 0, cwd: '/workspace' })
  })

  it('runs each command in the cwd it is given, with HOME set', async () => {
    const session = await createBashSession({ entries: seed })
    expect(await session.exec(input('pwd; ls; echo $HOME', { cwd: '/workspace/src' }))).toEqual({
      stdout: '/workspace/src\nmain.ts\n/home/user\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace/src',
    })
    expect(await session.exec(input('pwd'))).toEqual({ stdout: '/workspace\n', stderr: '', exitCode: 0, cwd: '/workspace' })
  })

  it('reads seeded files by relative or absolute path, and null for missing ones', async () => {
    const session = await createBashSession({ entries: seed })
    expect([
      await session.readFile('README.md'),
      await session.readFile('/workspace/src/main.ts'),
      await session.readFile('missing.txt'),
      await session.readFile('src'),
    ]).toEqual(['# demo\n', 'export {}\n', null, null])
  })

  it('runs commands exactly as written, keeping indentation in here-documents', async () => {
    const session = await createBashSession()
    const command = "cat > a.py <<'EOF'\ndef f():\n    return 1\nEOF\ncat a.py"
    expect(await session.exec(input(command))).toEqual({
      stdout: 'def f():\n    return 1\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
  })

  it('cuts output at the limit on a character boundary and says how much was cut', async () => {
    const session = await createBashSession({
      entries: [['/workspace/big.txt', { kind: 'file', content: 'é'.repeat(50_000) }]],
    })
    const result = await session.exec(input('cat big.txt', { outputLimitBytes: 1000 }))
    // 1,000 bytes minus the notice and its newlines (50) leave 950 for 475 two-byte characters.
    expect(result).toEqual({
      stdout: 'é'.repeat(475),
      stderr: '[output truncated: 950 of 100,000 bytes shown]\n',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect(result.stdout).not.toContain('\ufffd')
  })

  it('refuses a command over 64 KiB without running it', async () => {
    const session = await createBashSession()
    const command = `touch ran.txt # ${'x'.repeat(65_536)}`
    expect(await session.exec(input(command))).toEqual({
      stdout: '',
      stderr: 'fxterm: command refused: it is 65,552 bytes of UTF-8; the limit is 65,536 bytes (64 KiB)\n',
      exitCode: 2,
      cwd: '/workspace',
    })
    expect(await session.readFile('ran.txt')).toBe(null)
  })

  it('stops a busy loop at its timeout and keeps the files', async () => {
    // The workspace lifts just-bash's loop and command counts, so only the deadline ends it (a
    // loop that ran on would never give this thread back). "Timed out" is said only once the
    // command has run for its whole timeout.
    const session = await createBashSession()
    await session.exec(input('echo kept > a.txt'))
    const result = await session.exec(input('while true; do :; done', { timeoutMs: 200 }))
    expect(result).toEqual({
      stdout: '',
      stderr:
        'fxterm: command timed out after 200 ms\n',
      exitCode: 124,
      cwd: '/workspace',
    })
    expect(await session.readFile('a.txt')).toBe('kept\n')
  })

  it('stops a waiting command at its timeout', async () => {
    const session = await createBashSession()
    useFakeClock()
    const { value: result, clockMs } = await runClockUntil(session.exec(input('echo before; sleep 10', { timeoutMs: 200 })))
    expect(clockMs).toBeLessThan(10_000)
    // just-bash drops the output of a command it stops, so "before" is not shown.
    expect(result).toEqual({
      stdout: '',
      stderr: 'fxterm: command timed out after 200 ms\n',
      exitCode: 124,
      cwd: '/workspace',
    })
  })

  it('stops promptly when its signal aborts mid-command', async () => {
    const session = await createBashSession()
    const controller = new AbortController()
    useFakeClock()
    const running = session.exec(input('echo before; sleep 10; echo after', { signal: controller.signal }))
    setTimeout(() => controller.abort(), 50) // on the fake clock, as the sleep is
    const { value, clockMs } = await runClockUntil(running)
    expect(value).toEqual({
      stdout: '',
      stderr: 'fxterm: command cancelled\n',
      exitCode: 130,
      cwd: '/workspace',
    })
    // Long before the sleep would have ended: the abort stopped it.
    expect(clockMs).toBeLessThan(5000)
  })

  it('does not run a command whose signal is already aborted', async () => {
    const session = await createBashSession()
    const result = await session.exec(input('touch ran.txt', { signal: AbortSignal.abort() }))
    expect(result).toEqual({ stdout: '', stderr: 'fxterm: command cancelled\n', exitCode: 130, cwd: '/workspace' })
    expect(await session.readFile('ran.txt')).toBe(null)
  })

  it('treats exit code 124 from a quick command as its own, not a timeout', async () => {
    const session = await createBashSession()
    expect(await session.exec(input('exit 124'))).toEqual({ stdout: '', stderr: '', exitCode: 124, cwd: '/workspace' })
  })
})
