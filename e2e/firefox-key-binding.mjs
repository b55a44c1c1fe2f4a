// The Firefox smoke's key-binding case: a key saved for a server at one origin is not sent when
// a link names the same server under a look-alike origin (localhost for 127.0.0.1). The mock
// model server records what reached it; it must have seen requests and no Authorization header.
import { startMockModelServer } from '../mock-servers/mock-model-server.mjs'

const KEY = 'sk-firefox-binding-0123456789abcdef'

/** Runs the case on `page` (the built page at `origin`); throws with what went wrong. */
export async function keyBindingCase(page, origin, waitFor) {
  const mock = await startMockModelServer()
  try {
    const type = async (text) => {
      await page.focus('.xterm-helper-textarea')
      await page.keyboard.type(text)
    }
    await page.goto(`${origin}/`)
    await waitFor(/fxterm.*Run \/help for commands/, 20_000)
    await type(`/provider add mine ${mock.url}/v1`)
    await page.keyboard.press('Enter')
    await waitFor(/Added mine/, 10_000)
    await type('/key mine')
    await page.keyboard.press('Enter')
    await waitFor(/API key:/, 10_000)
    await type(KEY)
    await page.keyboard.press('Enter')
    await waitFor(/Key for mine saved/, 10_000)
    await waitFor(/Model: mock-model/, 10_000)
    // The same server under another name: only what it hears from now on is the look-alike's.
    const hits = async () => (await (await fetch(`${mock.url}/__hits`)).json()).filter((hit) => hit.method !== 'OPTIONS')
    const before = (await hits()).length
    const lookAlike = `${mock.url.replace('127.0.0.1', 'localhost')}/v1`
    await page.goto(`${origin}/?${new URLSearchParams({ baseUrl: lookAlike, model: 'mock-model' })}`)
    await waitFor(/fxterm.*Run \/help for commands/, 20_000)
    await type('hello look-alike')
    await page.keyboard.press('Enter')
    await waitFor(/mock: no scripted response/, 20_000)
    const sent = (await hits()).slice(before)
    if (sent.length === 0) throw new Error('Firefox: the look-alike server heard nothing, so the case proved nothing')
    const keyed = sent.filter((hit) => hit.authorization !== null)
    if (keyed.length > 0) throw new Error(`Firefox: a key saved for ${mock.url} went to ${lookAlike}: ${JSON.stringify(keyed)}`)
  } finally {
    await mock.close()
  }
}
