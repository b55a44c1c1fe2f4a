// The `test` every spec imports: adds a mock model server (one per worker, reset per test)
// and attaches the page's console errors to failures, since the app runs in workers we
// cannot step into.
import { test as base, expect } from '@playwright/test'
import { startMockModelServer, type MockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { MockModel } from './mock-model.ts'

type TestFixtures = { mock: MockModel; pageErrors: string[] }
type WorkerFixtures = { mockServer: MockModelServer }

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // One server per worker process, closed when the worker (and so the run) ends.
  mockServer: [
    async ({}, use) => {
      const server = await startMockModelServer()
      await use(server)
      await server.close()
    },
    { scope: 'worker' },
  ],

  // A clean queue and request log for every test; held streams from a failed test are released.
  mock: async ({ mockServer }, use) => {
    const mock = new MockModel(mockServer.url)
    await mock.reset()
    await use(mock)
    await mock.reset()
  },

  pageErrors: [
    async ({ page }, use, testInfo) => {
      const errors: string[] = []
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') errors.push(`console.${message.type()}: ${message.text()}`)
      })
      await use(errors)
      if (testInfo.status !== testInfo.expectedStatus && errors.length > 0) {
        await testInfo.attach('page-errors.txt', { body: errors.join('\n'), contentType: 'text/plain' })
      }
    },
    { auto: true },
  ],
})

export { expect }
