import { describe, expect, test } from 'vitest'
import { createBashSession } from './bash-session'

async function run(command: string) {
  const session = await createBashSession()
  return session.exec({ command, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 65_536 })
}

describe('limits the shell would hit silently are said', () => {
  test('a brace range over 10,000 words is refused with a line and a non-zero exit', async () => {
    const result = await run('echo {1..200000} | wc -w')
    expect(result).toMatchObject({
      stdout: '',
      stderr: 'fxterm: {1..200000} would make 200,000 words; this shell expands at most 10,000 per range. Use seq 1 200000 instead\n',
      exitCode: 2,
    })
  })

  test('a range within the cap, and one inside quotes, run as written', async () => {
    expect((await run('echo {1..10000} | wc -w')).stdout).toBe('10000\n')
    expect((await run("echo '{1..200000}'")).stdout).toBe('{1..200000}\n')
    expect((await run('echo {a..z} | wc -w')).stdout).toBe('26\n')
  })

  test('/dev/zero, which reads as empty here, is refused instead of giving no bytes', async () => {
    const result = await run('head -c 10 /dev/zero | wc -c')
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('fxterm: /dev/zero is not there in this shell')
    expect((await run('echo "/dev/zero is a device"')).stdout).toBe('/dev/zero is a device\n')
  })
})
