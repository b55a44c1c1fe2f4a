// Nothing leaks: after a sign-in, a turn, a token refresh, a key typed with /key and a sign-out,
// no token and no key appears on screen, in onEvent payloads, in anything stored in IndexedDB
// (sessions, prompt history, settings; the sign-in and the key only sealed), in the console, or
// in what was sent to the model.
import { test, expect, approve, dumpIndexedDb, openWithIssuer, recordedEvents, startLogin } from '../support/sign-in.ts'
import { readScreen, runSlashCommand, submitPrompt, typeInTerminal, pressEnter, waitForScreen } from '../support/screen.ts'

const KEY = 'vck_leakcheck_5f2a9c1e7b3d4a6f8e0c'

test('no token or key appears anywhere a person, a page script or a profile reader could see', async ({ page, issuer, mock }) => {
  const console: string[] = []
  page.on('console', (message) => console.push(message.text()))
  page.on('pageerror', (error) => console.push(error.message))
  await issuer.script({ accessTtls: [30, 3600] }) // the first token is due: the turn refreshes it
  await openWithIssuer(page, issuer, mock)
  await startLogin(page, issuer)
  await approve(page, issuer)

  await mock.script({ text: 'A reply while signed in.' })
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'A reply while signed in.')
  await expect.poll(async () => (await issuer.log()).filter((entry) => entry.grant === 'refresh_token').length).toBe(1)

  await runSlashCommand(page, '/key')
  await waitForScreen(page, 'API key:')
  await typeInTerminal(page, KEY)
  await waitForScreen(page, `API key: ${'•'.repeat(KEY.length)}`)
  await pressEnter(page)
  await waitForScreen(page, '✓ Key for ai-gateway saved (sealed in this browser;')

  const tokens = await issuer.tokens()
  const secrets = [...tokens.access, ...tokens.refresh, KEY]
  expect(tokens.access).toHaveLength(2)

  // While signed in and with a key saved: both are stored, sealed, never in the clear.
  const stored = await dumpIndexedDb(page)
  expect(Object.keys(stored)).toEqual(expect.arrayContaining(['fxterm-oauth/records', 'fxterm-key-oauth/records']))
  expect(stored['fxterm-oauth/records']).toContain('[CryptoKey extractable=false]')
  expect(stored['fxterm-key-oauth/records']).toContain('[CryptoKey extractable=false]')

  await runSlashCommand(page, '/logout')
  await waitForScreen(page, 'Signed out.')
  await runSlashCommand(page, '/key clear')
  await waitForScreen(page, 'The key for ai-gateway was removed.')

  const places: Record<string, string> = {
    screen: await readScreen(page),
    events: await recordedEvents(page),
    console: console.join('\n'),
    modelRequests: JSON.stringify(await mock.requests()),
    webStorage: await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
    ...Object.fromEntries(Object.entries(stored).map(([name, text]) => [`while signed in: ${name}`, text])),
    ...Object.fromEntries(Object.entries(await dumpIndexedDb(page)).map(([name, text]) => [`after sign-out: ${name}`, text])),
  }
  const found = Object.entries(places).flatMap(([place, text]) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${place}: ${secret.slice(0, 8)}…`))
  expect(found).toEqual([])
  // The scan looked at real content: the session and the prompt history were saved.
  expect(places['after sign-out: fxterm-sessions/records']).toContain('A reply while signed in.')
  expect(places['after sign-out: fxterm-history/records']).toContain('/key')
})
