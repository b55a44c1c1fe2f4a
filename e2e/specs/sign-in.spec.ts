// Device sign-in against the mock issuer: the code and URL on screen, the verification page
// opened once, the bearer on model requests, and a reload that stays signed in on its own.
import { test, expect, approve, openedUrls, openWithIssuer, startLogin, waitForAccountModel } from '../support/sign-in.ts'
import { pressKey, readScreen, readStatus, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen } from '../support/screen.ts'
import { blocksStartingWith } from '../support/model-turns.ts'

test('sign-in shows the code and URL, opens the page once, and model requests carry the token; a reload stays signed in without asking the issuer', async ({ page, issuer, mock }) => {
  await openWithIssuer(page, issuer, mock)
  const first = await waitForScreen(page, 'No model yet, so this is the offline demo. /model picks a real one (your key, a')
  // The onboarding row follows the banner (it waits for the stored state, as the banner does).
  expect(first.indexOf('Run /help for commands')).toBeLessThan(first.indexOf('No model yet'))
  await startLogin(page, issuer)

  const screen = await readScreen(page)
  const code = /^ {2}Code {2}(\S+)$/m.exec(screen)?.[1] ?? ''
  expect(code).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/)
  expect(screen).toContain(`  Open  ${issuer.url}/activate`)
  // openUrl got the complete verification URL (code included), exactly once.
  expect(await openedUrls(page)).toEqual([`${issuer.url}/activate?user_code=${code}`])

  await approve(page, issuer)
  await waitForScreen(page, 'Provider: ai-gateway')
  const tokens = await issuer.tokens()
  expect(tokens.access).toHaveLength(1)

  await mock.script({ text: 'Hello from the signed-in model.' })
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'Hello from the signed-in model.')
  const chat = (await mock.hits()).filter((hit) => hit.method === 'POST' && hit.path === '/v1/chat/completions')
  expect(chat.map((hit) => hit.authorization)).toEqual([`Bearer ${tokens.access[0]}`])
  expect(await openedUrls(page)).toHaveLength(1)

  const issuerRequests = (await issuer.log()).length
  await mock.reset()
  await page.reload()
  await waitForAccountModel(page)
  await mock.script({ text: 'Still signed in.' })
  await submitPrompt(page, 'again')
  await waitForScreen(page, 'Still signed in.')
  expect((await mock.hits()).filter((hit) => hit.method === 'POST').map((hit) => hit.authorization)).toEqual([`Bearer ${tokens.access[0]}`])
  expect((await issuer.log()).length).toBe(issuerRequests)
})

test('Esc cancels a waiting sign-in, and a declined one says so', async ({ page, issuer, mock }) => {
  await openWithIssuer(page, issuer, mock)
  await startLogin(page, issuer)
  await pressKey(page, 'Escape')
  await waitForScreen(page, 'Sign-in cancelled.')

  await issuer.script({ pending: 1, outcome: 'deny' })
  await startLogin(page, issuer)
  await issuer.script({ pending: 0 })
  await waitForScreen(page, '✗ Sign-in failed')
  expect(blocksStartingWith(await readScreen(page), '✗ ')).toEqual(['✗ Sign-in failed: Sign-in was declined on the verification page. Run /login to try again.'])
})

test('an issuer that refuses this page’s origin gets a plain message that points to the fetch option', async ({ page, issuer, mock }) => {
  await openWithIssuer(page, issuer, mock, issuer.noCorsIssuer)
  await runSlashCommand(page, '/login')
  await waitForScreen(page, '✗ Sign-in failed')
  expect(blocksStartingWith(await readScreen(page), '✗ ')).toEqual([
    `✗ Sign-in failed: The sign-in server ${issuer.url} does not allow requests from this page (CORS). Pass createFxTerminal a \`fetch\` option that sends them through your app's own server.`,
  ])
})

test('a 401 renews the token once and the request goes again; a server that echoes the token has it masked', async ({ page, issuer, mock }) => {
  await openWithIssuer(page, issuer, mock)
  await startLogin(page, issuer)
  await approve(page, issuer)
  await mock.script({ status: 401, body: '{"error":{"message":"token expired"}}' }, { text: 'Answer after the renewal.' })
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'Answer after the renewal.')
  const tokens = await issuer.tokens()
  const posts = (await mock.hits()).filter((hit) => hit.method === 'POST')
  expect(posts.map((hit) => hit.authorization)).toEqual([`Bearer ${tokens.access[0]}`, `Bearer ${tokens.access[1]}`])
  expect((await issuer.log()).filter((entry) => entry.grant === 'refresh_token')).toHaveLength(1)

  const echoed = tokens.access[1]!
  await mock.script({ status: 403, body: JSON.stringify({ error: { message: `token ${echoed} may not use this model` } }) })
  await submitPrompt(page, 'again')
  await waitForScreen(page, /^✗ /m)
  const screen = await readScreen(page)
  expect(screen).not.toContain(echoed)
  expect(blocksStartingWith(screen, '✗ ').join('\n')).toContain('token *** may not use this model')
})

test('/key takes a key masked, model requests use it, and /key clear goes back to the demo', async ({ page, issuer, mock }) => {
  const key = 'vck_e2e_key_0123456789'
  await openWithIssuer(page, issuer, mock)
  await runSlashCommand(page, '/key')
  await waitForScreen(page, 'API key:')
  await typeInTerminal(page, key)
  await waitForScreen(page, `API key: ${'•'.repeat(key.length)}`)
  expect(await readScreen(page)).not.toContain(key)
  await pressKey(page, 'Enter')
  await waitForScreen(page, '✓ Key for ai-gateway saved (sealed in this browser;')
  await waitForAccountModel(page)

  await mock.script({ text: 'Answered with the key.' })
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'Answered with the key.')
  expect((await mock.hits()).filter((hit) => hit.method === 'POST').map((hit) => hit.authorization)).toEqual([`Bearer ${key}`])

  await runSlashCommand(page, '/key clear')
  await waitForScreen(page, 'The key for ai-gateway was removed.')
  await expect.poll(() => readStatus(page)).toContain('auto · demo ·')
})
