// The hostile suites' bait: a server on this machine that records every request and connection
// made to it. A hostile spec points an attack at it and asserts `hits` is empty at the end; the
// `bait` fixture of `hostileTest` does that after every test, so no attack can pass by leaking.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { test, expect } from './fixtures.ts'

export interface Bait {
  /** `http://127.0.0.1:<port>`: point attacks here. */
  url: string
  /** `host:port`, for attacks that need a bare host. */
  host: string
  /** Every request (`METHOD /path authorization=<header>`), upgrade and connection seen. */
  hits: string[]
  close(): Promise<void>
}

export async function startBait(): Promise<Bait> {
  const hits: string[] = []
  const server = http.createServer((request, response) => {
    const auth = request.headers.authorization ?? request.headers['x-api-key']
    hits.push(`${request.method} ${request.url}${auth ? ` authorization=${String(auth)}` : ''}`)
    response.setHeader('access-control-allow-origin', '*')
    response.setHeader('access-control-allow-headers', '*')
    response.end('stolen')
  })
  server.on('upgrade', (request, socket) => {
    hits.push(`upgrade ${request.url}`)
    socket.destroy()
  })
  server.on('connection', () => hits.push('connection'))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** `test` with a `bait` server per test; the test fails if the bait heard anything at all. */
export const hostileTest = test.extend<{ bait: Bait }>({
  bait: async ({}, use) => {
    const bait = await startBait()
    try {
      await use(bait)
      expect(bait.hits, 'the bait server must hear nothing').toEqual([])
    } finally {
      await bait.close()
    }
  },
})

export { expect }
