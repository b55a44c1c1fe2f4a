/**
 * Unit-test helpers: the mock issuer (the same Node server the end-to-end tests use), a clock
 * the test moves, and a sleep that only advances that clock.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startMockIssuer, type MockIssuer } from '../../mock-servers/mock-issuer-server.mjs'
import { MockIssuerClient } from '../../mock-servers/mock-issuer-client.ts'

/** Starts one issuer for the file, reset before each test. */
export function useMockIssuer(): { get: () => MockIssuerClient } {
  let server: MockIssuer | undefined
  let client: MockIssuerClient | undefined
  beforeAll(async () => {
    server = await startMockIssuer()
    client = new MockIssuerClient(server.url)
  })
  beforeEach(async () => {
    await client!.reset()
  })
  afterAll(async () => {
    await server?.close()
  })
  return { get: () => client! }
}

/** A clock that moves only when the code under test sleeps; `slept` records every wait. */
export function fakeTime(startMs = 1_000_000) {
  let now = startMs
  const slept: number[] = []
  return {
    now: () => now,
    slept,
    advance(ms: number) {
      now += ms
    },
    sleep: async (ms: number, signal: AbortSignal) => {
      if (signal.aborted) throw new Error('aborted')
      slept.push(ms)
      now += ms
    },
  }
}
