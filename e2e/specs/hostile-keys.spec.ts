// Hostile: a saved key goes only to the origin it was saved for. Each attempt is scripted as an
// attacker would (a link with a look-alike ?baseUrl=, a redirect, a secret typed in the open, a
// second tab), against the built page with a bait server that must hear nothing. Where an attack
// must reach a server to show the header is absent, the server is the mock model server (on this
// machine) or, for https hosts, a route that answers in place of the network and records what the
// page sent.
import type { BrowserContext, Page } from '@playwright/test'
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { BANNER, openDemo } from '../support/app.ts'
import { expect, hostileTest as test } from '../support/bait.ts'
import { saveKey } from '../support/provider-keys.ts'
import { dumpIndexedDb } from '../support/sign-in.ts'
import { pressEnter, pressKey, readScreen, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen, waitForTerminal } from '../support/screen.ts'

const OPENAI_KEY = 'sk-proj-hostileKeys0123456789abcdefXYZ'
const MINE_KEY = 'sk-e2e-mine-0123456789abcdef'

type Sent = { method: string; url: string; authorization: string | null; apiKey: string | null }

/**
 * Answers every https request in place of the network (OpenAI's host and any look-alike) and
 * records what the page sent: a chat request gets a short reply, /models one model.
 */
async function routeHttps(context: BrowserContext): Promise<Sent[]> {
  const sent: Sent[] = []
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*', 'access-control-allow-methods': '*' }
  await context.route(/^https:\/\//, async (route) => {
    const request = route.request()
    const headers = await request.allHeaders()
    if (request.method() !== 'OPTIONS') sent.push({ method: request.method(), url: request.url(), authorization: headers['authorization'] ?? null, apiKey: headers['x-api-key'] ?? null })
    if (request.method() === 'OPTIONS') return route.fulfill({ status: 204, headers: cors })
    if (request.url().endsWith('/models')) return route.fulfill({ headers: cors, contentType: 'application/json', body: JSON.stringify({ data: [{ id: 'gpt-x' }] }) })
    const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
    return route.fulfill({ headers: cors, contentType: 'text/event-stream', body: chunk({ content: 'routed reply' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n' })
  })
  return sent
}

async function openLink(page: Page, baseUrl: string, model = 'gpt-x'): Promise<void> {
  await page.goto(`/?${new URLSearchParams({ baseUrl, model })}`)
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}

/** The demo page with OpenAI's key saved (its requests answered by the route). */
async function saveOpenAiKey(page: Page): Promise<Sent[]> {
  const sent = await routeHttps(page.context())
  await openDemo(page)
  await saveKey(page, 'openai', OPENAI_KEY)
  return sent
}

const withKey = (sent: Sent[]) => sent.filter((request) => request.authorization !== null || request.apiKey !== null)

// 1-4: a link names a host that looks like OpenAI's; the person says yes to it, prompts and lists
// models. The host gets the prompt (that is what yes means) but never the key saved for OpenAI.
const LOOK_ALIKES = [
  ['a host named like the preset', 'https://openai/v1', 'https://openai'],
  ['the real name as a prefix of another host', 'https://api.openai.com.evil.test/v1', 'https://api.openai.com.evil.test'],
  ['the real host on another port', 'https://api.openai.com:8443/v1', 'https://api.openai.com:8443'],
] as const

for (const [what, baseUrl, origin] of LOOK_ALIKES) {
  test(`look-alike: ${what} (${baseUrl}) never gets the OpenAI key, on /models or a prompt`, async ({ page }) => {
    const sent = await saveOpenAiKey(page)
    const before = sent.length
    await openLink(page, baseUrl)
    await submitPrompt(page, 'hello look-alike')
    await waitForScreen(page, `sends your prompts to ${origin}. Send them there? (y/n)`)
    await typeInTerminal(page, 'y')
    await waitForScreen(page, `Prompts go to ${origin} in this tab.`)
    await waitForScreen(page, 'routed reply')
    await runSlashCommand(page, '/models')
    await waitForScreen(page, /Models on|✗ .*models/)
    const after = sent.slice(before)
    const toLookAlike = after.filter((request) => new URL(request.url).origin === origin)
    expect(toLookAlike.length).toBeGreaterThan(0)
    expect(withKey(toLookAlike)).toEqual([])
    // The key went nowhere but OpenAI's own origin (the preset may list its models meanwhile).
    expect(withKey(after).filter((request) => new URL(request.url).origin !== 'https://api.openai.com')).toEqual([])
    expect(await readScreen(page)).not.toContain(OPENAI_KEY)
  })
}

// 5-6: links the page refuses outright: nothing goes anywhere but OpenAI's own origin.
const REFUSED = [
  ['plain http to the real host', 'http://api.openai.com/v1', 'plain http is allowed only for localhost'],
  ['the real name as the user part of another host', 'https://api.openai.com@other.test/v1', 'may not carry a user name or password'],
] as const

for (const [what, baseUrl, why] of REFUSED) {
  test(`look-alike: ${what} (${baseUrl}) is refused, and nothing is sent`, async ({ page }) => {
    const sent = await saveOpenAiKey(page)
    const before = sent.length
    await openLink(page, baseUrl)
    await waitForScreen(page, why)
    expect(sent.slice(before).filter((request) => new URL(request.url).origin !== 'https://api.openai.com')).toEqual([])
  })
}

test('a link without consent: answering n sends nothing to its host, now or on the next prompt', async ({ page }) => {
  const sent = await routeHttps(page.context())
  await openLink(page, 'https://evil.test/v1')
  await submitPrompt(page, 'first prompt')
  await waitForScreen(page, 'sends your prompts to https://evil.test. Send them there? (y/n)')
  await typeInTerminal(page, 'n')
  await waitForScreen(page, 'Nothing was sent to https://evil.test: you answered no.')
  await submitPrompt(page, 'second prompt')
  await expect.poll(async () => (await readScreen(page)).split('Nothing was sent to https://evil.test').length - 1).toBeGreaterThanOrEqual(2)
  expect(sent).toEqual([])
})

test('the answer to a link is this tab’s: another tab neither gets the server nor the yes', async ({ page, context }) => {
  const sent = await routeHttps(context)
  await openLink(page, 'https://evil.test/v1')
  await submitPrompt(page, 'hello evil')
  await waitForScreen(page, 'Send them there? (y/n)')
  expect(sent).toEqual([])
  await typeInTerminal(page, 'y')
  await waitForScreen(page, 'routed reply')
  expect(sent.map((request) => request.authorization)).toEqual(sent.map(() => null))
  // A tab opened plainly stays on its own provider, and nothing stored names the link's server.
  const plain = await context.newPage()
  await openDemo(plain)
  await runSlashCommand(plain, '/status')
  await waitForScreen(plain, /provider +demo/)
  const stored = await dumpIndexedDb(plain)
  expect(Object.entries(stored).filter(([place, text]) => !place.startsWith('fxterm-sessions') && text.includes('evil.test')).map(([place]) => place)).toEqual([])
  // A second tab opened with the same link is asked again: the yes was not passed on.
  const again = await context.newPage()
  const count = sent.length
  await openLink(again, 'https://evil.test/v1')
  await submitPrompt(again, 'hello again')
  await waitForScreen(again, 'Send them there? (y/n)')
  expect(sent.length).toEqual(count)
  await typeInTerminal(again, 'n')
  await waitForScreen(again, 'Nothing was sent to https://evil.test')
  expect(sent.length).toEqual(count)
})

test('another host name for the same server (localhost for 127.0.0.1) gets no key', async ({ page, mock }) => {
  await openDemo(page)
  await runSlashCommand(page, `/provider add mine ${mock.baseUrl}`)
  await waitForScreen(page, 'Added mine')
  await saveKey(page, 'mine', MINE_KEY)
  await waitForScreen(page, 'Model: mock-model')
  const lookAlike = mock.baseUrl.replace('127.0.0.1', 'localhost')
  const before = (await mock.hits()).length
  await openLink(page, lookAlike, 'mock-model')
  await mock.script({ text: 'Reply without a key.' })
  await submitPrompt(page, 'hello localhost')
  await waitForScreen(page, 'Reply without a key.')
  await runSlashCommand(page, '/models')
  await waitForScreen(page, /Models on/)
  // Only what was sent to the look-alike name: a late request of the page before the link, to
  // 127.0.0.1 with its key, is that key going where it was saved for.
  const hits = (await mock.hits()).slice(before).filter((hit) => hit.method !== 'OPTIONS' && hit.host?.startsWith('localhost:'))
  expect(hits.length).toBeGreaterThanOrEqual(2)
  expect(hits.map((hit) => hit.authorization)).toEqual(hits.map(() => null))
})

test('the same host on another port gets no key', async ({ page, mock }) => {
  const other = await startMockModelServer()
  try {
    await openDemo(page)
    await runSlashCommand(page, `/provider add mine ${mock.baseUrl}`)
    await waitForScreen(page, 'Added mine')
    await saveKey(page, 'mine', MINE_KEY)
    await openLink(page, `${other.url}/v1`, 'mock-model')
    await submitPrompt(page, 'hello other port')
    await waitForScreen(page, /mock: no scripted response|✗ /)
    const hits = (await (await fetch(`${other.url}/__hits`)).json()) as Array<{ method: string; authorization: string | null }>
    expect(hits.filter((hit) => hit.method !== 'OPTIONS').length).toBeGreaterThan(0)
    expect(hits.filter((hit) => hit.authorization !== null)).toEqual([])
  } finally {
    await other.close()
  }
})

test('a keyed request redirected to another origin is not followed: the bait hears nothing', async ({ page, mock, bait }) => {
  await openDemo(page)
  await runSlashCommand(page, `/provider add mine ${mock.baseUrl}`)
  await waitForScreen(page, 'Added mine')
  await saveKey(page, 'mine', MINE_KEY)
  await waitForScreen(page, 'Model: mock-model')
  await mock.script({ status: 307, body: '', headers: { location: `${bait.url}/v1/chat/completions` } })
  await submitPrompt(page, 'hello redirect')
  await waitForScreen(page, 'with a redirect; fxterm does not follow it')
  const posts = (await mock.hits()).filter((hit) => hit.method === 'POST')
  expect(posts.map((hit) => hit.authorization)).toEqual([`Bearer ${MINE_KEY}`])
})

// Secrets typed in the open: refused, and found nowhere afterwards (history, sessions, screen).
const SECRET_LINES = [
  ['/key <provider> <value> on one line', '/key openai sk-proj-inTheOpen0123456789abcdefgh', 'sk-proj-inTheOpen0123456789abcdefgh'],
  ['an Anthropic key in a prompt', 'use sk-ant-api03-Zyx987Wvu654Tsr321Qpo please', 'sk-ant-api03-Zyx987Wvu654Tsr321Qpo'],
  ['a JWT in a prompt', 'token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlMTIz', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlMTIz'],
] as const

for (const [what, line, secret] of SECRET_LINES) {
  test(`secret in the open: ${what} is kept in no store and left on no screen`, async ({ page }) => {
    await openDemo(page)
    await typeInTerminal(page, line)
    await pressEnter(page)
    await waitForScreen(page, /looks like an API key|\/key takes a provider name, not the key/)
    await submitPrompt(page, 'an ordinary prompt')
    // The ordinary prompt reaches the history store: the secret line would have been there first.
    await expect.poll(async () => (await dumpIndexedDb(page))['fxterm-history/records'] ?? '').toContain('an ordinary prompt')
    await pressKey(page, 'ArrowUp')
    await pressKey(page, 'ArrowUp')
    const stored = await dumpIndexedDb(page)
    expect(Object.entries(stored).filter(([, text]) => text.includes(secret)).map(([place]) => place)).toEqual([])
    expect(await readScreen(page)).not.toContain(secret)
  })
}
