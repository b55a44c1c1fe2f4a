// What the provider specs share: saving a provider's key with /key, and the first two steps a
// person takes from the first screen (/model lists every way to a model; the key for the one
// chosen), each waiting for what the screen says back.
import type { Page } from '@playwright/test'
import { pressEnter, runSlashCommand, typeInTerminal, waitForScreen } from './screen.ts'

/** Types `key` at the masked prompt, Enter; waits for the saved line. */
async function enterKey(page: Page, name: string, key: string): Promise<void> {
  await waitForScreen(page, 'API key:')
  await typeInTerminal(page, key)
  await waitForScreen(page, `API key: ${'•'.repeat(key.length)}`)
  await pressEnter(page)
  await waitForScreen(page, `✓ Key for ${name} saved`)
}

/** /key <name>, the key pasted masked, Enter; waits for the saved line. */
export async function saveKey(page: Page, name: string, key: string): Promise<void> {
  await runSlashCommand(page, `/key ${name}`)
  await enterKey(page, name, key)
}

/** /model on a page without a model: the provider `name` from the list, then its key. */
export async function chooseProviderWithKey(page: Page, name: string, key: string): Promise<void> {
  await runSlashCommand(page, '/model')
  await waitForScreen(page, 'Choose where your model runs')
  await typeInTerminal(page, name)
  await pressEnter(page)
  await enterKey(page, name, key)
}
