// With no `modelCatalog`, an agent checks `effort`, `fast` and `ultrafast` against the provider's
// own model list (GET /models, fetched once per agent) before the first request, and fails with
// the reference's LIBFX_MODEL_UNSUPPORTED_* codes; when the list cannot be had, it sends as before.
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createFxAgent } from './create-fx-agent.ts'
import { engineModule, reply, useMock } from '../../../test/support/agent-api.ts'
import type { FxAgentOptions, FxModel } from '../../shared/agent-api/types.ts'

const mock = useMock()
const GATEWAY = 'https://ai-gateway.vercel.sh/v1'
const MODEL = 'anthropic/claude-haiku-5.5'

/** AI Gateway's /models: the model reasons (low, medium, high) and has no ultrafast tier. */
const GATEWAY_MODELS = { object: 'list', data: [{ id: MODEL, type: 'language', context_window: 200000, tags: ['tool-use', 'reasoning'], service_tiers: ['priority'] }] }

/** An agent whose "AI Gateway" answers /models with `models` (a status number: that error) and chat from the mock. */
function agentWith(models: object | number, options: FxAgentOptions = {}) {
  const listed: string[] = []
  const agent = createFxAgent({
    apiKey: 'sk-test',
    model: MODEL,
    wasm: engineModule(),
    worker: false,
    fetch: async (input, init) => {
      const url = String(input instanceof Request ? input.url : input)
      if (url.endsWith('/models')) {
        listed.push(url)
        return typeof models === 'number' ? new Response('down', { status: models }) : Response.json(models)
      }
      return fetch(url.replace(GATEWAY, mock.baseUrl), init)
    },
    ...options,
  })
  return { agent, listed }
}

const turnWith = async (agent: ReturnType<typeof createFxAgent>, model: FxModel) => {
  const { stopReason, error } = await agent.session(undefined, { model }).prompt('hi').result
  return { stopReason, code: error?.code }
}

describe("settings checked against the provider's catalog", () => {
  it('an effort the list does not offer fails before any request, naming the efforts it has', async () => {
    const { agent, listed } = agentWith(GATEWAY_MODELS)
    const { stopReason, error } = await agent.session(undefined, { model: { id: MODEL, effort: 'bogus' } }).prompt('hi').result
    await agent.close()
    expect({ stopReason, error }).toEqual({ stopReason: 'error', error: { code: ErrorCode.LIBFX_MODEL_UNSUPPORTED_EFFORT, message: `The model ${MODEL} does not take effort "bogus": it takes low, medium, high.` } })
    expect(listed).toEqual([`${GATEWAY}/models`])
    expect(await mock.requests()).toEqual([])
  })

  it('ultrafast on a model without that tier fails with LIBFX_MODEL_UNSUPPORTED_ULTRAFAST', async () => {
    const { agent } = agentWith(GATEWAY_MODELS)
    expect(await turnWith(agent, { id: MODEL, ultrafast: true })).toEqual({ stopReason: 'error', code: ErrorCode.LIBFX_MODEL_UNSUPPORTED_ULTRAFAST })
    await agent.close()
    expect(await mock.requests()).toEqual([])
  })

  it('fast on a provider with no fast tier fails with LIBFX_MODEL_UNSUPPORTED_FAST', async () => {
    const { agent } = agentWith({ data: [{ id: 'm' }] }, { provider: { name: 'router', baseUrl: mock.baseUrl }, model: 'm', apiKey: undefined })
    expect(await turnWith(agent, { id: 'm', fast: true })).toEqual({ stopReason: 'error', code: ErrorCode.LIBFX_MODEL_UNSUPPORTED_FAST })
    await agent.close()
    expect(await mock.requests()).toEqual([])
  })

  it('an effort the list offers is sent, and the list is fetched once for every session of the agent', async () => {
    await mock.script(reply('one'), reply('two'))
    const { agent, listed } = agentWith(GATEWAY_MODELS)
    expect(await turnWith(agent, { id: MODEL, effort: 'high' })).toEqual({ stopReason: 'end_turn', code: undefined })
    expect(await turnWith(agent, { id: MODEL, effort: 'low' })).toEqual({ stopReason: 'end_turn', code: undefined })
    await agent.close()
    expect(listed.length).toBe(1)
    expect((await mock.requests()).map((r) => (r as { reasoning_effort?: string }).reasoning_effort)).toEqual(['high', 'low'])
  })

  it('when the list cannot be had, the turn is sent as it is and the server decides', async () => {
    await mock.script(reply('sent anyway'))
    const { agent, listed } = agentWith(503)
    expect(await turnWith(agent, { id: MODEL, effort: 'bogus' })).toEqual({ stopReason: 'end_turn', code: undefined })
    await agent.close()
    expect(listed.length).toBe(1)
    expect((await mock.requests()).map((r) => (r as { reasoning_effort?: string }).reasoning_effort)).toEqual(['bogus'])
  })

  it('with no setting to check, or with a modelCatalog given, the list is not fetched', async () => {
    await mock.script(reply('plain'), reply('from the catalog'))
    const plain = agentWith(GATEWAY_MODELS)
    expect(await turnWith(plain.agent, MODEL)).toEqual({ stopReason: 'end_turn', code: undefined })
    await plain.agent.close()
    const given = agentWith(GATEWAY_MODELS, { modelCatalog: [{ id: MODEL, efforts: ['max'] }] })
    expect(await turnWith(given.agent, { id: MODEL, effort: 'max' })).toEqual({ stopReason: 'end_turn', code: undefined })
    await given.agent.close()
    expect([...plain.listed, ...given.listed]).toEqual([])
  })
})
