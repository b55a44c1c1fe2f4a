// Sign-in specs: a mock issuer next to the mock model server (one per worker, reset per test),
// the page opened on it, and readers for what the page keeps (IndexedDB dumped raw).
import type { Page } from '@playwright/test'
import { test as base, expect } from './fixtures.ts'
import { startMockIssuer, type MockIssuer } from '../../mock-servers/mock-issuer-server.mjs'
import { MockIssuerClient } from '../../mock-servers/mock-issuer-client.ts'
import type { MockModel } from './mock-model.ts'
import { BANNER } from './app.ts'
import { readStatus, runSlashCommand, waitForScreen, waitForTerminal } from './screen.ts'

export const test = base.extend<{ issuer: MockIssuerClient }, { issuerServer: MockIssuer }>({
  issuerServer: [
    async ({}, use) => {
      const server = await startMockIssuer()
      await use(server)
      await server.close()
    },
    { scope: 'worker' },
  ],
  issuer: async ({ issuerServer }, use) => {
    const client = new MockIssuerClient(issuerServer.url)
    await client.reset()
    await use(client)
  },
})
export { expect }

type SignInWindow = Window & { fxterm?: { openedUrls: string[]; events: unknown[] } }

/** Opens the page signing in at the mock issuer, its tokens going to the mock model server. */
export async function openWithIssuer(page: Page, issuer: MockIssuerClient, mock: MockModel, issuerUrl = issuer.issuer): Promise<void> {
  await page.goto(`/?${new URLSearchParams({ issuer: issuerUrl, signInModel: mock.baseUrl })}`)
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}

/** Runs /login and waits until the code is on screen (the issuer keeps answering "pending"). */
export async function startLogin(page: Page, issuer: MockIssuerClient): Promise<void> {
  await issuer.script({ pending: 1_000_000 })
  await runSlashCommand(page, '/login')
  await waitForScreen(page, 'Waiting for authorization…')
}

/** The person approves on the verification page: the next poll gets the tokens. */
export async function approve(page: Page, issuer: MockIssuerClient): Promise<void> {
  await issuer.script({ pending: 0 })
  await waitForScreen(page, '✓ Signed in.')
}

export function openedUrls(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as SignInWindow).fxterm?.openedUrls ?? [])])
}

export function recordedEvents(page: Page): Promise<string> {
  return page.evaluate(() => JSON.stringify((window as SignInWindow).fxterm?.events ?? []))
}

/**
 * Every record of every IndexedDB database of the page, as text (bytes decoded as Latin-1, so
 * any token stored in the clear would show): what someone reading the profile would find.
 */
export function dumpIndexedDb(page: Page): Promise<Record<string, string>> {
  return page.evaluate(async () => {
    const out: Record<string, string> = {}
    const show = (value: unknown): unknown => {
      if (value instanceof Uint8Array) return String.fromCharCode(...value)
      if (value instanceof ArrayBuffer) return String.fromCharCode(...new Uint8Array(value))
      if (typeof CryptoKey !== 'undefined' && value instanceof CryptoKey) return `[CryptoKey extractable=${value.extractable}]`
      if (Array.isArray(value)) return value.map(show)
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, show(v)]))
      return value
    }
    for (const info of await indexedDB.databases()) {
      const name = info.name!
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name)
        open.onsuccess = () => resolve(open.result)
        open.onerror = () => reject(open.error)
      })
      for (const storeName of [...db.objectStoreNames]) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(storeName, 'readonly').objectStore(storeName).getAll()
          request.onsuccess = () => resolve(request.result)
          request.onerror = () => reject(request.error)
        })
        out[`${name}/${storeName}`] = JSON.stringify(values.map(show))
      }
      db.close()
    }
    return out
  })
}

/** Waits until the status line names the account provider's model (signed in, at start or after). */
export async function waitForAccountModel(page: Page): Promise<void> {
  await expect.poll(() => readStatus(page), { timeout: 15_000, message: 'status line shows the account model' }).toContain('claude-sonnet-4.5')
}
