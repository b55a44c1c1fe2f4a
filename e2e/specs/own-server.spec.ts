// A person's own model server, typed as a person does: /model → "another server" → its URL →
// a reply, in three steps; a key asked for only when the server answers 401; /provider add
// switching to the server it adds; /provider remove forgetting one (and not a preset).
import { BANNER, openDemo } from '../support/app.ts'
import { test, expect } from '../support/fixtures.ts'
import { pressEnter, pressKey, readScreen, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen } from '../support/screen.ts'

const KEY = 'sk-e2e-own-server-key-7f3a91'

/** /model on the demo, "another server", then the URL typed at the inline prompt. */
async function anotherServer(page: import('@playwright/test').Page, url: string): Promise<void> {
  await runSlashCommand(page, '/model')
  await waitForScreen(page, 'Choose where your model runs')
  await typeInTerminal(page, 'another')
  await pressEnter(page)
  await waitForScreen(page, 'Server URL, e.g. http://localhost:8080/v1 · Enter adds it · Esc cancels')
  await typeInTerminal(page, url)
  await pressEnter(page)
}

test('another server: its URL, then a reply, with no key asked for and none sent', async ({ page, mock }) => {
  await openDemo(page)
  const name = `127.0.0.1-${new URL(mock.url).port}`
  // Step 1 and 2: the picker's entry, then the URL (a bare origin: /v1 is added).
  await anotherServer(page, mock.url)
  await waitForScreen(page, `Added ${name} (${mock.baseUrl}, OpenAI-compatible).`)
  await waitForScreen(page, `Provider: ${name} (${mock.baseUrl}) · asking it for its models… · key not needed.`)
  await waitForScreen(page, `Model: mock-model (the first ${name} lists).`)
  expect(await readScreen(page)).not.toContain('no key yet')
  // Step 3: the prompt gets the server's reply.
  await mock.script({ text: 'A reply from your own server.' })
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'A reply from your own server.')
  expect((await mock.hits()).filter((hit) => hit.method === 'POST').map((hit) => hit.authorization)).toEqual([null])
  await runSlashCommand(page, '/status')
  await waitForScreen(page, `provider   ${name}`)
  expect((await readScreen(page)).split('\n').find((line) => line.startsWith('  provider'))?.trimEnd()).toBe(`  provider   ${name}`)
})

test('a server that answers 401 asks for its key, then replies with it', async ({ page, mock }) => {
  await openDemo(page)
  await anotherServer(page, `${mock.url}/keyed/v1`)
  await waitForScreen(page, 'answered 401: it wants a key.')
  await waitForScreen(page, 'API key:')
  await typeInTerminal(page, KEY)
  await waitForScreen(page, `API key: ${'•'.repeat(KEY.length)}`)
  await pressEnter(page)
  await waitForScreen(page, 'Model: mock-model (the first 127.0.0.1-')
  await mock.script({ text: 'Keyed reply.' })
  await submitPrompt(page, 'hello with a key')
  await waitForScreen(page, 'Keyed reply.')
  expect((await mock.hits()).filter((hit) => hit.method === 'POST').map((hit) => hit.authorization)).toEqual([`Bearer ${KEY}`])
})

test('Esc at the URL prompt adds nothing and leaves the composer empty', async ({ page }) => {
  await openDemo(page)
  await runSlashCommand(page, '/model')
  await waitForScreen(page, 'Choose where your model runs')
  await typeInTerminal(page, 'another')
  await pressEnter(page)
  await waitForScreen(page, 'Server URL, e.g.')
  await typeInTerminal(page, 'http://localhost:9')
  await pressKey(page, 'Escape')
  await waitForScreen(page, 'No server was added. /model offers it again.')
  const composer = (await readScreen(page)).split('\n').filter((line) => line.startsWith('❯')).map((line) => line.trimEnd())
  expect(composer).toEqual(['❯'])
})

test('/provider add switches to the server; /provider remove forgets it and says where it is now', async ({ page, mock }) => {
  await openDemo(page)
  await runSlashCommand(page, `/provider add mine ${mock.baseUrl}`)
  await waitForScreen(page, `Provider: mine (${mock.baseUrl})`)
  await waitForScreen(page, 'Model: mock-model (the first mine lists).')
  await runSlashCommand(page, '/provider remove ollama')
  await waitForScreen(page, 'ollama is built in, so it stays.')
  await runSlashCommand(page, '/provider remove mine')
  await waitForScreen(page, `Removed mine (${mock.baseUrl}) and any key saved for it. It was in use, so demo is now.`)
  await waitForScreen(page, 'Provider: demo · model demo.')
  // Gone after a reload too.
  await page.reload()
  await waitForScreen(page, BANNER)
  await runSlashCommand(page, '/provider')
  await waitForScreen(page, '/provider <name> switches')
  expect(await readScreen(page)).not.toContain('mine')
})
