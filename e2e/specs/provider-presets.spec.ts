// The hosted presets from a page: each request goes to the preset's real API address with its
// own key in its own header (plus Anthropic's version and browser opt-in), and a preset whose API
// refuses browsers says so in one line, asks for no key and sends nothing. The APIs' hosts are routed by the
// browser context (which sees the engine worker's requests) to the mock server, so the URL and
// headers asserted are the ones that would leave the machine.
import type { BrowserContext, Request } from '@playwright/test'
import { openDemo } from '../support/app.ts'
import { test, expect } from '../support/fixtures.ts'
import type { MockModel } from '../support/mock-model.ts'
import { readErrors } from '../support/model-turns.ts'
import { chooseProviderWithKey, saveKey } from '../support/provider-keys.ts'
import { pressEnter, readScreen, runSlashCommand, submitPrompt, waitForScreen } from '../support/screen.ts'

/** One request the page sent to a hosted API, as it left the browser. */
type Sent = { method: string; url: string; headers: Record<string, string> }

/**
 * Routes everything under `apiRoot` to the mock (same path below the root) and records each
 * request: what a person's browser would have sent to that API.
 */
async function routeApi(context: BrowserContext, apiRoot: string, mock: MockModel, catalog?: string[]): Promise<Sent[]> {
  const sent: Sent[] = []
  await context.route(`${apiRoot}/**`, async (route, request: Request) => {
    sent.push({ method: request.method(), url: request.url(), headers: await request.allHeaders() })
    // The API's own catalog, when the test names one (the mock lists only mock-model).
    if (catalog && request.method() === 'GET' && request.url() === `${apiRoot}/models`) {
      const data = catalog.map((id) => ({ id, object: 'model', created: 0, owned_by: 'e2e' }))
      await route.fulfill({ status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': '*' }, body: JSON.stringify({ object: 'list', data }) })
      return
    }
    const response = await route.fetch({ url: mock.baseUrl + request.url().slice(apiRoot.length) })
    await route.fulfill({ response })
  })
  return sent
}

/** The headers a person's key and the wire's opt-ins travel in (the rest is the browser's). */
function keyHeaders(headers: Record<string, string>) {
  const pick = ['authorization', 'x-api-key', 'anthropic-version', 'anthropic-dangerous-direct-browser-access']
  return Object.fromEntries(pick.filter((name) => headers[name] !== undefined).map((name) => [name, headers[name]]))
}

const BEARER_PRESETS = [
  { name: 'openai', root: 'https://api.openai.com/v1', key: 'sk-e2e-openai-preset-1f4a' },
  { name: 'openrouter', root: 'https://openrouter.ai/api/v1', key: 'sk-or-e2e-preset-7c2e' },
  { name: 'gemini', root: 'https://generativelanguage.googleapis.com/v1beta/openai', key: 'AIza-e2e-gemini-preset-2c9e' },
  { name: 'groq', root: 'https://api.groq.com/openai/v1', key: 'gsk_e2e_preset_9d0b' },
  { name: 'mistral', root: 'https://api.mistral.ai/v1', key: 'e2e-mistral-preset-3a8f' },
  { name: 'xai', root: 'https://api.x.ai/v1', key: 'xai-e2e-preset-5e1c' },
]

for (const preset of BEARER_PRESETS) {
  test(`${preset.name}: the reply comes from ${preset.root}/chat/completions, its key a bearer`, async ({ page, mock }) => {
    const sent = await routeApi(page.context(), preset.root, mock)
    await openDemo(page)
    await saveKey(page, preset.name, preset.key)
    await mock.script({ text: `Hello from ${preset.name}.` })
    await submitPrompt(page, `hello ${preset.name}`)
    await waitForScreen(page, `Hello from ${preset.name}.`)

    const posts = sent.filter((request) => request.method === 'POST')
    expect(posts.map((request) => [request.url, keyHeaders(request.headers)])).toEqual([
      [`${preset.root}/chat/completions`, { authorization: `Bearer ${preset.key}` }],
    ])
    // Every request the page sent this API carried this key and no other header of a wire.
    expect(sent.every((request) => request.method === 'OPTIONS' || keyHeaders(request.headers)['authorization'] === `Bearer ${preset.key}`)).toBe(true)
    expect((await readScreen(page)).includes(preset.key)).toBe(false)
  })
}

test('anthropic: the reply comes from api.anthropic.com/v1/messages with x-api-key and the opt-ins', async ({ page, mock }) => {
  const KEY = 'sk-ant-e2e-preset-0b6d'
  const root = 'https://api.anthropic.com/v1'
  const sent = await routeApi(page.context(), root, mock)
  await openDemo(page)
  await saveKey(page, 'anthropic', KEY)
  await mock.script({ text: 'Hello from anthropic.' })
  await submitPrompt(page, 'hello anthropic')
  await waitForScreen(page, 'Hello from anthropic.')

  const posts = sent.filter((request) => request.method === 'POST')
  expect(posts.map((request) => [request.url, keyHeaders(request.headers)])).toEqual([
    [`${root}/messages`, { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' }],
  ])
  const body = (await mock.requests()).at(-1) as unknown as Record<string, unknown>
  expect([body['model'], body['stream'], typeof body['system'], Array.isArray(body['messages'])]).toEqual(['claude-sonnet-4-5', true, 'string', true])
})

test('deepseek refuses browser pages: /key says so instead of asking, and nothing is sent', async ({ page, mock }) => {
  const root = 'https://api.deepseek.com/v1'
  const refusal =
    '✗ deepseek does not accept requests from a browser page (its API sends no CORS headers); the app embedding fxterm can pass a fetch option that sends them through its own server.'
  const sent = await routeApi(page.context(), root, mock)
  await openDemo(page)
  // A key would be of no use on this page (no proxy): the line comes instead of the key prompt.
  await runSlashCommand(page, '/key deepseek')
  await waitForScreen(page, 'No key was saved.')
  expect(await readErrors(page)).toEqual([refusal])
  expect(await readScreen(page)).not.toContain('API key:')
  // Chosen anyway, a prompt gets the same line instead of an unexplained network error.
  await runSlashCommand(page, '/provider deepseek')
  await submitPrompt(page, 'hello deepseek')
  await expect.poll(async () => (await readErrors(page)).at(-1)).toEqual(refusal)
  expect(sent).toEqual([])
})

test('from a fresh page to an OpenAI reply: the provider, its key, a model from its catalog, a prompt', async ({ page, mock }) => {
  const KEY = 'sk-e2e-first-screen-8e3d'
  const root = 'https://api.openai.com/v1'
  const sent = await routeApi(page.context(), root, mock, ['gpt-5-mini', 'gpt-5'])
  await openDemo(page)
  await waitForScreen(page, '/model picks a real one')
  // 1: the provider /model lists first; 2: its key, masked.
  await chooseProviderWithKey(page, 'openai', KEY)
  // 3: a model from its catalog (the default, gpt-5-mini, is selected; one down is gpt-5).
  await waitForScreen(page, 'Choose a model on openai')
  await page.keyboard.press('ArrowDown')
  await pressEnter(page)
  await mock.script({ text: 'The first real reply.' })
  await submitPrompt(page, 'hello')
  await waitForScreen(page, 'The first real reply.')

  const posts = sent.filter((request) => request.method === 'POST')
  expect(posts.map((request) => [request.url, keyHeaders(request.headers)])).toEqual([[`${root}/chat/completions`, { authorization: `Bearer ${KEY}` }]])
  expect((await mock.requests()).map((body) => body.model)).toEqual(['gpt-5'])
})
