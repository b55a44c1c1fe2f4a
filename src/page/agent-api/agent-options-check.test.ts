import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createFxAgent } from './create-fx-agent.ts'

/** The error createFxAgent throws for `options`, as the app sees it. */
function refusal(options: Record<string, unknown>): { code: unknown; option: unknown; message: string } {
  try {
    createFxAgent(options as never)
  } catch (error) {
    const e = error as { code?: unknown; option?: unknown; message: string }
    return { code: e.code, option: e.option, message: e.message }
  }
  throw new Error('createFxAgent accepted the options')
}

describe('options createFxAgent does not take', () => {
  it('persistence is refused with a pointer to durability', () => {
    const error = refusal({ persistence: { load: async () => [] } })
    expect([error.code, error.option]).toEqual([ErrorCode.FX_AGENT_OPTION_UNKNOWN, 'persistence'])
    expect(error.message).toContain('durability')
  })

  it('sessionId is refused with a pointer to agent.session(id)', () => {
    const error = refusal({ sessionId: 'support-42' })
    expect([error.code, error.option]).toEqual([ErrorCode.FX_AGENT_OPTION_UNKNOWN, 'sessionId'])
    expect(error.message).toContain('agent.session(id)')
  })

  it('a misspelt option is refused by name, not ignored', () => {
    expect(refusal({ instruction: 'Answer briefly.' })).toEqual({
      code: ErrorCode.FX_AGENT_OPTION_UNKNOWN,
      option: 'instruction',
      message: 'createFxAgent has no option "instruction".',
    })
  })

  it('every option docs/library.md lists is taken', () => {
    const agent = createFxAgent({
      model: 'm', instructions: 'i', tools: [], provider: 'demo', apiKey: 'k', credentials: async () => ({}), fetch: globalThis.fetch,
      maxSteps: 3, streamIdleTimeoutMs: 30_000, worker: false, demoTapeUrl: './tape.json', onEvent: () => {}, modelCatalog: [],
    } as never)
    expect(typeof agent.session).toBe('function')
  })
})
