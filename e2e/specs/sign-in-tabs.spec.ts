// Two tabs of one page share the sign-in: a sign-out in one is seen in the other, and when the
// access token is about to expire they renew it once between them (refresh tokens rotate).
import { test, expect, approve, openWithIssuer, startLogin, waitForAccountModel } from '../support/sign-in.ts'
import { readStatus, runSlashCommand, submitPrompt, waitForScreen } from '../support/screen.ts'

test('signing in and out in one tab is seen in the other, and the grant is revoked', async ({ page, issuer, mock }) => {
  await openWithIssuer(page, issuer, mock)
  const second = await page.context().newPage()
  await openWithIssuer(second, issuer, mock)
  await startLogin(page, issuer)
  await approve(page, issuer)
  await waitForScreen(second, '✓ Signed in in another tab.')
  await waitForAccountModel(second)

  await runSlashCommand(page, '/logout')
  await waitForScreen(page, 'Signed out.')
  await waitForScreen(second, 'Signed out in another tab.')
  // Back on the offline demo (told by the sign-out, or by the first tab's saved provider).
  await expect.poll(() => readStatus(second)).toContain('auto · demo ·')
  const tokens = await issuer.tokens()
  expect(tokens.revoked).toEqual([tokens.refresh[0]])

  // The second tab's next model request goes out without a token: nothing of the sign-in is left.
  await runSlashCommand(second, '/status')
  await waitForScreen(second, 'sign-in    not signed in')
})

test('two tabs at expiry refresh the token once, and both use the new one', async ({ page, issuer, mock }) => {
  // The first access token has 30 s left: inside the refresh margin, so its first use renews it.
  await issuer.script({ accessTtls: [30, 3600] })
  await openWithIssuer(page, issuer, mock)
  await startLogin(page, issuer)
  await approve(page, issuer)
  const second = await page.context().newPage()
  await openWithIssuer(second, issuer, mock)
  await waitForAccountModel(second)

  await mock.script({ text: 'Answer one.' }, { text: 'Answer two.' })
  await Promise.all([submitPrompt(page, 'first tab'), submitPrompt(second, 'second tab')])
  await waitForScreen(page, /Answer (one|two)\./)
  await waitForScreen(second, /Answer (one|two)\./)

  const refreshes = (await issuer.log()).filter((entry) => entry.grant === 'refresh_token')
  expect(refreshes).toHaveLength(1)
  const tokens = await issuer.tokens()
  const chat = (await mock.hits()).filter((hit) => hit.method === 'POST' && hit.path === '/v1/chat/completions')
  expect(chat.map((hit) => hit.authorization)).toEqual([`Bearer ${tokens.access[1]}`, `Bearer ${tokens.access[1]}`])
})
