// The reference's quick start on AI Gateway: the key comes from `apiKey`, then AI_GATEWAY_API_KEY
// (the `env` option, else process.env in Node), then `credentials`; with none the turn fails with
// a code naming the missing key, and the offline demo plays only when asked for.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createFxAgent } from './create-fx-agent.ts'
import { createFxEngine } from './create-fx-engine.ts'
import { engineModule, linesOf, reply, useMock } from '../../../test/support/agent-api.ts'
import type { FxAgentOptions } from '../../shared/agent-api/types.ts'

const mock = useMock()
const GATEWAY = 'https://ai-gateway.vercel.sh/v1'

/** What reached "AI Gateway" (the mock, by a fetch that sends the gateway's host there). */
function gatewayAgent(options: FxAgentOptions) {
  const sent: Array<{ url: string; authorization: string | null }> = []
  const agent = createFxAgent({
    model: 'anthropic/claude-haiku-5.5',
    instructions: 'Answer in one paragraph.',
    wasm: engineModule(),
    worker: false,
    modelCatalog: [],
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input)
      sent.push({ url, authorization: new Headers(init?.headers).get('authorization') })
      return fetch(url.replace(GATEWAY, mock.baseUrl), init)
    },
    ...options,
  })
  return { agent, sent }
}

async function run(options: FxAgentOptions) {
  const { agent, sent } = gatewayAgent(options)
  const turn = agent.session().prompt('What is an agent loop?')
  const lines = await linesOf(turn)
  const text = lines.filter((l) => l.type === 'text_delta').map((l) => l['delta']).join('')
  const result = await turn.result
  await agent.close()
  return { text, stopReason: result.stopReason, code: result.error?.code, sent }
}

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('the AI Gateway key', () => {
  it('AI_GATEWAY_API_KEY from process.env is sent when no option names a key', async () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', 'env-key-1')
    await mock.script(reply('An agent loop repeats.'))
    const { text, stopReason, sent } = await run({})
    expect({ text, stopReason }).toEqual({ text: 'An agent loop repeats.', stopReason: 'end_turn' })
    expect(sent).toEqual([{ url: `${GATEWAY}/chat/completions`, authorization: 'Bearer env-key-1' }])
  })

  it('the env option is read instead of process.env (the page has no process)', async () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', 'process-key')
    await mock.script(reply('From the page.'))
    const { sent } = await run({ env: { AI_GATEWAY_API_KEY: 'page-key' } })
    expect(sent.map((s) => s.authorization)).toEqual(['Bearer page-key'])
  })

  it('apiKey comes before the environment key, and credentials are not asked when a key is there', async () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', 'env-key')
    await mock.script(reply('one'), reply('two'))
    let asked = 0
    const credentials = () => (asked++, { apiKey: 'signed-in' })
    expect((await run({ apiKey: 'option-key', credentials })).sent.map((s) => s.authorization)).toEqual(['Bearer option-key'])
    expect((await run({ credentials })).sent.map((s) => s.authorization)).toEqual(['Bearer env-key'])
    expect(asked).toBe(0)
  })

  it('credentials (the sign-in) answer when there is neither apiKey nor AI_GATEWAY_API_KEY', async () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', '')
    await mock.script(reply('signed in'))
    const { sent } = await run({ credentials: ({ provider }) => ({ apiKey: `token-for-${provider}` }) })
    expect(sent.map((s) => s.authorization)).toEqual(['Bearer token-for-ai-gateway'])
  })

  it('with no key at all the first turn fails naming AI_GATEWAY_API_KEY, sends nothing and plays no demo', async () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', '')
    const { text, stopReason, code, sent } = await run({})
    expect({ text, stopReason, code, sent }).toEqual({ text: '', stopReason: 'error', code: ErrorCode.FX_AI_GATEWAY_API_KEY_MISSING, sent: [] })
  })

  it("the offline demo plays when asked for with provider: 'demo', key or not", async () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', 'env-key')
    // The demo reads its tape with the module's own loader, not the app's fetch.
    const { text, stopReason } = await run({ provider: 'demo', fetch: undefined })
    expect(stopReason).toBe('end_turn')
    expect(text).toContain('offline demo')
    expect(await mock.requests()).toEqual([])
  })

  it('createFxEngine({ model }) with no key fails the same way instead of replaying the demo', async () => {
    vi.stubEnv('AI_GATEWAY_API_KEY', '')
    const engine = await createFxEngine({ model: 'anthropic/claude-haiku-5.5', wasm: engineModule(), worker: false })
    const turn = engine.prompt('Summarize this file.')
    const text = (await linesOf(turn)).filter((l) => l.type === 'text_delta').length
    const { stopReason, error } = await turn.result
    await engine.close()
    expect({ text, stopReason, code: error?.code }).toEqual({ text: 0, stopReason: 'error', code: ErrorCode.FX_AI_GATEWAY_API_KEY_MISSING })
  })
})
