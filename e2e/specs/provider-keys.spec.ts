// Your own model on the static page: a server added with /provider add gets its key in the
// header of its wire (Bearer for OpenAI-compatible, x-api-key with Anthropic's version and
// browser opt-in headers), a key for a ?baseUrl= server goes to that server and nowhere else, and
// a local Ollama is found on its port with its models, or the one line says how to start it.
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { BANNER, openDemo } from '../support/app.ts'
import { test, expect } from '../support/fixtures.ts'
import { openWithBaseUrl, readErrors } from '../support/model-turns.ts'
import { chooseProviderWithKey, saveKey } from '../support/provider-keys.ts'
import { dumpIndexedDb, recordedEvents } from '../support/sign-in.ts'
import { pressEnter, pressKey, readScreen, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen } from '../support/screen.ts'

const OPENAI_KEY = 'sk-e2e-openai-wire-4c1d9a7f'
const ANTHROPIC_KEY = 'sk-ant-e2e-anthropic-wire-8b2e6f0c'

test('each wire sends its own key in its own header to the server it was saved for', async ({ page, mock }) => {
  await openDemo(page)
  await runSlashCommand(page, `/provider add mockoai ${mock.baseUrl}`)
  await waitForScreen(page, `Added mockoai (${mock.baseUrl}, OpenAI-compatible)`)
  await runSlashCommand(page, `/provider add mockant ${mock.baseUrl} anthropic`)
  await waitForScreen(page, `Added mockant (${mock.baseUrl}, Anthropic Messages)`)

  await saveKey(page, 'mockoai', OPENAI_KEY)
  await waitForScreen(page, 'Model: mock-model (the first mockoai lists).')
  await mock.script({ text: 'Reply over Chat Completions.' })
  await submitPrompt(page, 'hello over openai')
  await waitForScreen(page, 'Reply over Chat Completions.')

  await saveKey(page, 'mockant', ANTHROPIC_KEY)
  await waitForScreen(page, 'Model: mock-model (the first mockant lists).')
  await mock.script({ text: 'Reply over Anthropic Messages.' })
  await submitPrompt(page, 'hello over anthropic')
  await waitForScreen(page, 'Reply over Anthropic Messages.')

  const posts = (await mock.hits()).filter((hit) => hit.method === 'POST')
  expect(posts.map(({ path, authorization, apiKey, anthropicVersion, browserAccess }) => ({ path, authorization, apiKey, anthropicVersion, browserAccess }))).toEqual([
    { path: '/v1/chat/completions', authorization: `Bearer ${OPENAI_KEY}`, apiKey: undefined, anthropicVersion: undefined, browserAccess: undefined },
    { path: '/v1/messages', authorization: null, apiKey: ANTHROPIC_KEY, anthropicVersion: '2023-06-01', browserAccess: 'true' },
  ])
  const anthropicBody = (await mock.requests()).at(-1) as unknown as Record<string, unknown>
  expect([anthropicBody['model'], anthropicBody['stream'], anthropicBody['max_tokens']]).toEqual(['mock-model', true, 8192])

  // The table says where each one is and that its key is saved.
  await runSlashCommand(page, '/provider')
  await waitForScreen(page, '/provider <name> switches')
  const screen = (await readScreen(page)).replace(/\s+/g, ' ')
  expect(screen).toContain(`mockoai key saved model (from its list) ${mock.baseUrl}`)
  expect(screen).toContain(`● mockant key saved model mock-model ${mock.baseUrl}`)
  expect(screen).toContain('openai key none model gpt-5-mini https://api.openai.com/v1')
})

test('a key for the ?baseUrl= server goes to that server only, and is nowhere a person or a script could read it', async ({ page, mock }) => {
  const KEY = 'sk-e2e-own-server-6d3f1b9e2a'
  const logged: string[] = []
  page.on('console', (message) => logged.push(message.text()))
  const sentWithKey: string[] = []
  page.context().on('request', (request) => {
    const headers = request.headers()
    if (Object.values(headers).some((value) => value.includes(KEY))) sentWithKey.push(`${request.method()} ${request.url()}`)
  })
  await openWithBaseUrl(page, mock.baseUrl)
  // A bare /key is for the server in use, not AI Gateway.
  await runSlashCommand(page, '/key')
  await waitForScreen(page, 'API key:')
  await typeInTerminal(page, KEY)
  await pressEnter(page)
  await waitForScreen(page, `✓ Key for ${mock.host} saved`)
  await mock.script({ text: 'Reply with the key.' })
  await submitPrompt(page, 'hello with a key')
  await waitForScreen(page, 'Reply with the key.')

  const posts = (await mock.hits()).filter((hit) => hit.method === 'POST')
  expect(posts.map((hit) => [hit.path, hit.authorization])).toEqual([['/v1/chat/completions', `Bearer ${KEY}`]])
  // What the page itself saw go out with the key (worker requests are reported to the context).
  expect(sentWithKey.length).toBeGreaterThan(0)
  expect(sentWithKey.every((line) => line.startsWith(`POST ${mock.baseUrl}/`) || line.startsWith(`GET ${mock.baseUrl}/`))).toBe(true)

  const stored = await dumpIndexedDb(page)
  expect(stored['fxterm-key-oauth/records']).toContain('[CryptoKey extractable=false]')
  const places: Record<string, string> = {
    screen: await readScreen(page),
    events: await recordedEvents(page),
    console: logged.join('\n'),
    modelRequestBodies: JSON.stringify(await mock.requests()),
    webStorage: await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })),
    ...stored,
  }
  expect(Object.entries(places).filter(([, text]) => text.includes(KEY)).map(([place]) => place)).toEqual([])
  expect(places['fxterm-sessions/records']).toContain('Reply with the key.')
})

test('Ollama on its port is found and its first model chosen; /models lists them', async ({ page }) => {
  const ollama = await startMockModelServer({ port: 11434 }).catch(() => null)
  test.skip(ollama === null, 'port 11434 is taken (a real Ollama?)')
  try {
    await openDemo(page)
    await runSlashCommand(page, '/provider ollama')
    await waitForScreen(page, 'Model: mock-model (the first ollama lists).')
    await runSlashCommand(page, '/models')
    await waitForScreen(page, 'Models on ollama (1)')
    await submitPrompt(page, 'hello ollama')
    await waitForScreen(page, 'mock: no scripted response')
  } finally {
    await ollama?.close()
  }
})

test('no Ollama running: one line with the command that starts it for this page', async ({ page }) => {
  // Only meaningful when nothing listens on Ollama's port.
  const probe = await startMockModelServer({ port: 11434 }).catch(() => null)
  test.skip(probe === null, 'port 11434 is taken (a real Ollama?)')
  await probe!.close()
  await openDemo(page)
  const origin = await page.evaluate(() => location.origin)
  await runSlashCommand(page, '/provider ollama')
  await waitForScreen(page, /^✗ /m)
  expect(await readErrors(page)).toEqual([`✗ nothing answered at http://localhost:11434/v1; start it with OLLAMA_ORIGINS=${origin} ollama serve and try again.`])
  expect(await readScreen(page)).not.toContain('No model is chosen')
  // A prompt typed anyway is refused with the same fix, and leaves the composer empty for the next command.
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'has no model to answer yet: nothing answered')
  expect(await readScreen(page)).not.toContain('No model is chosen')
  await runSlashCommand(page, '/provider lmstudio')
  await waitForScreen(page, 'Provider: lmstudio')
  expect(await readScreen(page)).not.toContain('hello/provider')
})

test('from the first screen to a first reply in three steps: a provider, its key, a prompt', async ({ page, mock }) => {
  await openDemo(page)
  await waitForScreen(page, '/model picks a real one')
  // The server a person would reach through a preset; added first so the picker lists it. It
  // wants a key (401 without one): /provider add switches to it and asks, declined here, and
  // the demo is chosen again, as if the person had only just arrived.
  await runSlashCommand(page, `/provider add mockoai ${mock.url}/keyed/v1`)
  await waitForScreen(page, 'mockoai answered 401: it wants a key.')
  await pressKey(page, 'Escape')
  await waitForScreen(page, 'No key was saved.')
  await runSlashCommand(page, '/provider demo')
  await waitForScreen(page, 'Provider: demo')

  // 1: /model on the demo lists every way to a model; choose one. 2: its key, masked.
  await chooseProviderWithKey(page, 'mockoai', OPENAI_KEY)
  await waitForScreen(page, 'Model: mock-model (the first mockoai lists).')
  // 3: the first prompt gets a real reply.
  await mock.script({ text: 'The first real reply.' })
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'The first real reply.')
  expect((await mock.hits()).filter((hit) => hit.method === 'POST').map((hit) => hit.authorization)).toEqual([`Bearer ${OPENAI_KEY}`])
})

test('a server added with /provider add, its key and the choice of it outlive a reload; a new key replaces the old', async ({ page, mock }) => {
  const FIRST = 'sk-e2e-first-key-11aa'
  const SECOND = 'sk-e2e-second-key-22bb'
  await openDemo(page)
  await runSlashCommand(page, `/provider add mine ${mock.baseUrl}`)
  await waitForScreen(page, `Added mine (${mock.baseUrl}, OpenAI-compatible)`)
  await saveKey(page, 'mine', FIRST)
  await waitForScreen(page, 'Model: mock-model (the first mine lists).')
  // One key per provider: saving again replaces it.
  await saveKey(page, 'mine', SECOND)

  await page.reload()
  await waitForScreen(page, BANNER)
  await runSlashCommand(page, '/provider')
  await waitForScreen(page, '/provider <name> switches')
  expect((await readScreen(page)).replace(/\s+/g, ' ')).toContain(`● mine key saved model`)
  await mock.reset()
  await mock.script({ text: 'Still here after a reload.' })
  await submitPrompt(page, 'hello again')
  await waitForScreen(page, 'Still here after a reload.')
  expect((await mock.hits()).filter((hit) => hit.method === 'POST').map((hit) => [hit.path, hit.authorization])).toEqual([['/v1/chat/completions', `Bearer ${SECOND}`]])
})
