// A model setting the model's catalog entry does not offer fails the turn with a code naming
// it (the reference's LIBFX_MODEL_UNSUPPORTED_*), before anything is sent.
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { mockAgent, reply, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()
const modelCatalog = [{ id: 'mock-model', contextWindow: 128000, efforts: ['low', 'high'], fast: false }]

describe('model settings', () => {
  it('an effort the catalog does not list, or fast on a model without a fast tier, fails the turn', async () => {
    await mock.script(reply('with high effort'))
    const agent = mockAgent(mock, { modelCatalog })
    const tooMuch = await agent.session('e1', { model: { id: 'mock-model', effort: 'max' } }).prompt('think hard').result
    expect(tooMuch.stopReason).toBe('error')
    expect(tooMuch.error).toEqual({ code: ErrorCode.LIBFX_MODEL_UNSUPPORTED_EFFORT, message: 'The model mock-model does not take effort "max": it takes low, high.' })
    const fast = await agent.session('e2', { model: { id: 'mock-model', fast: true } }).prompt('quick').result
    expect(fast.error?.code).toBe(ErrorCode.LIBFX_MODEL_UNSUPPORTED_FAST)
    expect((await mock.requests()).length).toBe(0)
    const ok = await agent.session('e3', { model: { id: 'mock-model', effort: 'high' } }).prompt('think').result
    expect(ok.stopReason).toBe('end_turn')
    expect((await mock.requests()).length).toBe(1)
    await agent.close()
  })

  it('ultrafast is sent as service_tier "ultrafast" where the catalog offers it, and fails the turn where it says the model has none', async () => {
    await mock.script(reply('fast answer'))
    const catalog = [
      { id: 'mock-model', contextWindow: 128000, ultrafast: true },
      { id: 'slow-model', contextWindow: 128000, ultrafast: false },
    ]
    const agent = mockAgent(mock, { modelCatalog: catalog })
    const refused = await agent.session('u1', { model: { id: 'slow-model', ultrafast: true } }).prompt('quick').result
    expect(refused.error).toEqual({ code: ErrorCode.LIBFX_MODEL_UNSUPPORTED_ULTRAFAST, message: 'The model slow-model has no ultrafast tier.' })
    expect((await mock.requests()).length).toBe(0)
    const done = await agent.session('u2', { model: { id: 'mock-model', ultrafast: true } }).prompt('quick').result
    expect(done.stopReason).toBe('end_turn')
    const [sent] = (await mock.requests()) as Array<{ service_tier?: string }>
    expect(sent?.service_tier).toBe('ultrafast')
    await agent.close()
  })

  it("a custom provider's models say which model has ultrafast; without it nothing is sent", async () => {
    await mock.script(reply('plain'))
    const agent = mockAgent(mock, {
      provider: { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': { contextWindow: 128000, supportsToolUse: true, ultrafast: false } } },
    })
    const refused = await agent.session('u3', { model: { id: 'mock-model', ultrafast: true } }).prompt('quick').result
    expect(refused.error?.code).toBe(ErrorCode.LIBFX_MODEL_UNSUPPORTED_ULTRAFAST)
    const plain = await agent.session('u4').prompt('normal').result
    expect(plain.stopReason).toBe('end_turn')
    const [sent] = (await mock.requests()) as Array<{ service_tier?: string }>
    expect(sent).toBeDefined()
    expect(sent!.service_tier).toBeUndefined()
    await agent.close()
  })
})
