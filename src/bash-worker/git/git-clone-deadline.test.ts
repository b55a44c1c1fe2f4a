import { createServer, type Server } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { createBashSession } from '../bash-session'

let server: Server | null = null
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = null
})

describe('a git network command and the command deadline', () => {
  it('is stopped by the deadline while it waits on the network, leaves nothing, and the shell goes on', async () => {
    const seen: string[] = []
    // A server that takes the request and never answers: only the deadline can end the wait.
    server = createServer((req) => void seen.push(req.url ?? ''))
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    const port = typeof address === 'object' && address ? address.port : 0
    const session = await createBashSession()
    // git's subcommands load on its first use: loaded here, so the deadline below is the network's.
    await session.exec({ command: 'git help', cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 1 << 16 })
    const stopped = await session.exec({ command: `git clone http://127.0.0.1:${port}/x.git; echo after`, cwd: '/workspace', timeoutMs: 400, outputLimitBytes: 1 << 16 })
    expect(seen).toEqual(['/x.git/info/refs?service=git-upload-pack'])
    expect(stopped.exitCode).toBe(124)
    expect(stopped.stdout).toBe('')
    expect(stopped.stderr).toMatch(/timed out|time limit|400 ?ms/i)
    const after = await session.exec({ command: 'ls -A; echo ok', cwd: '/workspace', timeoutMs: 5000, outputLimitBytes: 1 << 16 })
    expect(after).toMatchObject({ stdout: 'ok\n', exitCode: 0 })
  })
})
