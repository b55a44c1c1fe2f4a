// The system clipboard as a spec reads it. The page writes through navigator.clipboard (the
// default clipboard adapter); the browser context must grant 'clipboard-read' and
// 'clipboard-write' for the write to succeed and for the spec to read it back.
import { expect, type Page } from '@playwright/test'

export const CLIPBOARD_PERMISSIONS = ['clipboard-read', 'clipboard-write']

export async function readClipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText())
}

/** Puts known text on the clipboard, so a later read cannot pass on what an earlier test left. */
export async function writeClipboard(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => navigator.clipboard.writeText(text), text)
}

/** Polls until the clipboard holds exactly `text` (the copy travels engine → worker → page). */
export async function waitForClipboard(page: Page, text: string, timeout = 10_000): Promise<void> {
  await expect.poll(() => readClipboard(page), { intervals: [50, 100, 200], timeout, message: 'clipboard holds the copy' }).toBe(text)
}
