// A server that is up but sends no CORS headers (Ollama without OLLAMA_ORIGINS, LM Studio with
// CORS off) makes the browser's fetch fail with an opaque TypeError. The page probes, and the
// one error line says what happened and how to allow this page's origin.
import { startMockModelServer } from '../../mock-servers/mock-model-server.mjs'
import { test, expect } from '../support/fixtures.ts'
import { openWithBaseUrl, readErrors, waitForTurnOver } from '../support/model-turns.ts'
import { submitPrompt, typeInTerminal, waitForComposer, waitForScreen } from '../support/screen.ts'

test('a server that refuses the page’s origin gets an error naming CORS, the origin and the fix', async ({ page, mock }) => {
  await openWithBaseUrl(page, mock.noCorsBaseUrl)
  const origin = await page.evaluate(() => location.origin)

  await submitPrompt(page, 'hello?')
  await waitForScreen(page, /^✗ /m)
  await waitForTurnOver(page)
  const errors = await readErrors(page)
  expect(errors, 'exactly one error line').toHaveLength(1)
  const error = errors[0] ?? ''
  expect(error).toContain(`${mock.host} is running but refused requests from ${origin} (CORS)`)
  expect(error).toContain(`allow the origin ${origin} in the server's CORS settings`)

  // The server saw the POST's preflight from this origin, then the page's two probes of the same
  // server (a no-cors GET, which the browser sends without an Origin, and a CORS GET), never the
  // POST itself. (Earlier GETs of /models are the page loading the model catalog at start.)
  const hits = await mock.hits()
  const preflight = hits.findIndex((hit) => hit.method === 'OPTIONS')
  expect(hits.slice(preflight).map(({ method, path, origin }) => ({ method, path, origin }))).toEqual([
    { method: 'OPTIONS', path: '/nocors/v1/chat/completions', origin },
    { method: 'GET', path: '/nocors/v1/models', origin: null },
    { method: 'GET', path: '/nocors/v1/models', origin },
  ])
  expect(hits.some((hit) => hit.method === 'POST')).toBe(false)
  expect(await mock.requests()).toEqual([])

  await typeInTerminal(page, 'still here')
  await waitForComposer(page, 'still here')
})

test('an Ollama that refuses the page’s origin gets the exact OLLAMA_ORIGINS command', async ({ page }) => {
  // Ollama is known by its port; the mock takes 11434 when nothing else holds it.
  const ollama = await startMockModelServer({ port: 11434 }).catch(() => null)
  test.skip(ollama === null, 'port 11434 is taken (a real Ollama?)')
  try {
    await openWithBaseUrl(page, `${ollama!.url}/nocors/v1`, 'llama3.2')
    const origin = await page.evaluate(() => location.origin)
    await submitPrompt(page, 'hello?')
    await waitForScreen(page, /^✗ /m)
    expect(await readErrors(page)).toEqual([
      `✗ 127.0.0.1:11434 is running but refused requests from ${origin} (CORS); restart Ollama with OLLAMA_ORIGINS=${origin} ollama serve.`,
    ])
  } finally {
    await ollama?.close()
  }
})
