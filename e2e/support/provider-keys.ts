// What the provider specs share: saving a provider's key with /key, and the first two steps a
// person takes from the first screen (/model lists every way to a model; the key for the one
// chosen), each waiting for what the screen says back.
import { expect, type Page } from '@playwright/test'
import { pressEnter, readScreen, runSlashCommand, typeInTerminal, waitForScreen } from './screen.ts'

/** Types `key` at the masked prompt, Enter; waits for a new saved line (an earlier save's may be on screen). */
async function enterKey(page: Page, name: string, key: string): Promise<void> {
  const saved = `✓ Key for ${name} saved`
  const savedLines = async () => (await readScreen(page)).split('\n').filter((line) => line.includes(saved)).length
  const before = await savedLines()
  await waitForScreen(page, 'API key:')
  await typeInTerminal(page, key)
  await waitForScreen(page, `API key: ${'•'.repeat(key.length)}`)
  await pressEnter(page)
  await expect.poll(savedLines).toBe(before + 1)
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
