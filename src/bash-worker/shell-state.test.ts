import { afterEach, describe, expect, it, vi } from 'vitest'
import { createBashSession, type BashSession, type SessionExecInput } from './bash-session'
import { carriedVars, commandEnv } from './shell-state'
import { runClockUntil, useFakeClock } from '../../test/support/clock'

afterEach(() => vi.useRealTimers())

function input(command: string, overrides: Partial<SessionExecInput> = {}): SessionExecInput {
  return { command, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 65_536, ...overrides }
}

/** Runs `commands` one after another, each in the cwd the previous one returned, like the engine. */
async function runInTurn(session: BashSession, commands: string[]) {
  const results = []
  let cwd = '/workspace'
  for (const command of commands) {
    const result = await session.exec(input(command, { cwd }))
    results.push(result)
    cwd = result.cwd ?? cwd
  }
  return results
}

describe('shell state between commands', () => {
  it('keeps the directory from cd and the variables from export for the next command', async () => {
    const session = await createBashSession({ entries: [['/workspace/src/main.ts', { kind: 'file', content: '' }]] })
    expect(await runInTurn(session, ['cd src', 'pwd; ls', 'export A=1', 'echo "A=$A"'])).toEqual([
      { stdout: '', stderr: '', exitCode: 0, cwd: '/workspace/src' },
      { stdout: '/workspace/src\nmain.ts\n', stderr: '', exitCode: 0, cwd: '/workspace/src' },
      { stdout: '', stderr: '', exitCode: 0, cwd: '/workspace/src' },
      { stdout: 'A=1\n', stderr: '', exitCode: 0, cwd: '/workspace/src' },
    ])
  })

  it('keeps plain variables, forgets unset ones, and knows the previous directory for cd -', async () => {
    const session = await createBashSession()
    expect(await runInTurn(session, ['X=1; export Y=2; mkdir d; cd d', 'unset Y', 'echo "[$X][$Y]"; cd -'])).toEqual([
      { stdout: '', stderr: '', exitCode: 0, cwd: '/workspace/d' },
      { stdout: '', stderr: '', exitCode: 0, cwd: '/workspace/d' },
      { stdout: '[1][]\n/workspace\n', stderr: '', exitCode: 0, cwd: '/workspace' },
    ])
  })

  it('runs a command with side effects exactly once', async () => {
    const session = await createBashSession()
    expect(await runInTurn(session, ['echo x >> log.txt; cd /tmp', 'cat /workspace/log.txt'])).toEqual([
      { stdout: '', stderr: '', exitCode: 0, cwd: '/tmp' },
      { stdout: 'x\n', stderr: '', exitCode: 0, cwd: '/tmp' },
    ])
  })

  it('goes home on a bare cd', async () => {
    const session = await createBashSession()
    expect(await session.exec(input('cd; pwd'))).toEqual({ stdout: '/home/user\n', stderr: '', exitCode: 0, cwd: '/home/user' })
  })

  it('runs in the root and says so when the directory it is given is gone', async () => {
    const session = await createBashSession()
    await session.exec(input('mkdir gone'))
    await session.exec(input('rmdir /workspace/gone', { cwd: '/workspace/gone' }))
    expect(await session.exec(input('pwd', { cwd: '/workspace/gone' }))).toEqual({
      stdout: '/workspace\n',
      stderr: 'fxterm: /workspace/gone no longer exists, so the command ran in /workspace\n',
      exitCode: 0,
      cwd: '/workspace',
    })
  })

  it('leaves the directory and variables as they were when a command is stopped', async () => {
    const session = await createBashSession()
    await session.exec(input('mkdir src'))
    useFakeClock()
    const { value: stopped } = await runClockUntil(session.exec(input('cd src; export B=1; sleep 5', { timeoutMs: 100 })))
    vi.useRealTimers()
    expect([stopped.exitCode, stopped.cwd]).toEqual([124, '/workspace'])
    expect(await session.exec(input('echo "[$B]"; pwd'))).toEqual({
      stdout: '[]\n/workspace\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
  })

  it('starts with the variables a previous session handed over', async () => {
    const first = await createBashSession()
    await first.exec(input('export TOKEN=abc'))
    const second = await createBashSession({ vars: first.vars() })
    expect((await second.exec(input('echo $TOKEN $HOME'))).stdout).toBe('abc /home/user\n')
  })

  it('carries every variable but the per-command ones, and pins the option mirrors', () => {
    const env = { A: '1', PWD: '/w', '?': '0', SHELLOPTS: 'errexit', BASHOPTS: 'x', OLDPWD: '/' }
    expect(carriedVars(env)).toEqual({ A: '1', OLDPWD: '/' })
    expect(commandEnv({ A: '1' }, { SHELLOPTS: 'braceexpand', BASHOPTS: 'globskipdots', B: '2' }, '/w')).toEqual({
      A: '1',
      PWD: '/w',
      SHELLOPTS: 'braceexpand',
      BASHOPTS: 'globskipdots',
    })
  })
})

describe('exit codes and errors', () => {
  it('answers 127 for an unknown command and 2 for a syntax error', async () => {
    const session = await createBashSession()
    expect([await session.exec(input('svn status')), await session.exec(input('if then'))]).toEqual([
      { stdout: '', stderr: 'bash: svn: command not found\n', exitCode: 127, cwd: '/workspace' },
      {
        stdout: '',
        stderr: "bash: syntax error: Parse error at 1:8: syntax error near unexpected token `fi'\n",
        exitCode: 2,
        cwd: '/workspace',
      },
    ])
  })

  it('answers 126 when a just-bash limit stops the script', async () => {
    const session = await createBashSession({ executionLimits: { maxOutputSize: 100 } })
    expect(await session.exec(input('seq 1 1000; echo after'))).toEqual({
      stdout: '',
      stderr: 'bash: seq: output size limit exceeded (100 bytes)\n',
      exitCode: 126,
      cwd: '/workspace',
    })
  })

  it('runs a command with far more output than the cap to its end', async () => {
    const session = await createBashSession()
    const result = await session.exec(input('seq 1 200000; echo done >&2; touch finished', { outputLimitBytes: 200 }))
    expect(result).toEqual({
      // 200 bytes less the notice's 50 leave 150: stderr needs 5, so stdout gets 145 (1 to 51, then '5').
      stdout: `${Array.from({ length: 51 }, (_, i) => `${i + 1}\n`).join('')}5`,
      stderr: 'done\n[output truncated: 150 of 1,288,900 bytes shown]\n',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect(await session.readFile('finished')).toBe('')
  })

  it('writes and reads back a 66,894-byte file', async () => {
    const session = await createBashSession()
    expect(await session.exec(input('seq 1 13000 > f; wc -c f; tail -n 1 f'))).toEqual({
      stdout: '66894 f\n13000\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect((await session.readFile('f'))?.length).toBe(66_894)
  })
})
