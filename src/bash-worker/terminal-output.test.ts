import { describe, expect, it } from 'vitest'
import { createBashSession, type SessionExecInput } from './bash-session'

function input(command: string, overrides: Partial<SessionExecInput> = {}): SessionExecInput {
  return { command, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 65_536, ...overrides }
}

describe("a command whose output goes to the person's terminal (tty)", () => {
  it('colours git diff there, while the next command (the model reads it) is plain and has no FXTERM_TTY', async () => {
    const session = await createBashSession({ entries: [['/workspace/a.txt', { kind: 'file', content: 'old line\n' }]] })
    const setup = 'git init -q && git add a.txt && git -c user.name=A -c user.email=a@example.com commit -q -m one && echo "new line" > a.txt'
    expect((await session.exec(input(setup))).exitCode).toBe(0)
    const onTerminal = await session.exec(input('git diff', { tty: true }))
    expect(onTerminal.stdout).toContain('\x1b[31m-old line\x1b[m\n\x1b[32m+\x1b[m\x1b[32mnew line\x1b[m\n')
    const forModel = await session.exec(input('git diff; echo "tty=[$FXTERM_TTY]"'))
    expect(forModel.stdout).toContain('-old line\n+new line\n')
    expect(forModel.stdout).not.toContain('\x1b')
    expect(forModel.stdout).toContain('tty=[]\n')
  })
})
