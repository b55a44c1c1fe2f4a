// Opening the app: with no params it plays the offline demo tape; with ?baseUrl&model it talks
// to an OpenAI-compatible server (here, the mock).
import type { Page } from '@playwright/test'
import type { MockModel } from './mock-model.ts'
import { waitForScreen, waitForTerminal } from './screen.ts'

/** The banner line the page prints once the engine is up. */
export const BANNER = /fxterm.*Run \/help for commands/

export async function openDemo(page: Page): Promise<void> {
  await page.goto('/')
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}

export async function openWithMock(page: Page, mock: MockModel, model = 'mock-model'): Promise<void> {
  const params = new URLSearchParams({ baseUrl: mock.baseUrl, model })
  await page.goto(`/?${params}`)
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}
