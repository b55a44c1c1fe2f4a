import { describe, expect, test } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelProvider } from '../../shared/protocol/model-events.ts'
import { createLinkConsent } from './link-consent.ts'

/** A provider that records what reached it. */
function recording() {
  const reached: string[] = []
  const provider: ModelProvider = {
    name: 'evil.test',
    label: 'evil.test',
    defaultModel: 'm',
    async stream(_request, emit) {
      reached.push('stream')
      emit({ type: 'finish', reason: 'stop' })
    },
    async listModels() {
      reached.push('listModels')
      return [{ id: 'm' }]
    },
  }
  return { provider, reached }
}

function gate() {
  const said: string[] = []
  const consent = createLinkConsent({ origin: 'https://evil.test', say: (text) => said.push(text) })
  const { provider, reached } = recording()
  const guarded = consent.guard(provider)
  const run = async () => {
    const events: ModelEvent[] = []
    await guarded.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [] }, (event) => events.push(event), new AbortController().signal)
    return events
  }
  return { consent, guarded, reached, said, run }
}

describe('a server named by a link is asked about once', () => {
  test('nothing reaches it before the answer, and n sends nothing, now or later', async () => {
    const { consent, reached, said, run } = gate()
    const first = run()
    await Promise.resolve()
    expect(reached).toEqual([])
    expect(said).toEqual(['This page was opened with a link that sends your prompts to https://evil.test. Send them there? (y/n)'])
    expect(consent.captureKeys('x')).toBe(true)
    expect(consent.captureKeys('n')).toBe(true)
    const declined = 'Nothing was sent to https://evil.test: you answered no. /provider picks another provider; reloading the link asks again.'
    expect(await first).toEqual([{ type: 'error', code: ErrorCode.FX_MODEL_LINK_DECLINED, message: declined, retryable: false }])
    expect((await run()).map((event) => event.type)).toEqual(['error'])
    expect(reached).toEqual([])
    // Answered: keys are ordinary input again.
    expect(consent.captureKeys('y')).toBe(false)
  })

  test('the start-up catalog waits quietly; a prompt asks; y lets both and every later request through', async () => {
    const { consent, guarded, reached, said, run } = gate()
    const catalog = guarded.listModels!(new AbortController().signal)
    await Promise.resolve()
    expect({ said, reached, taken: consent.captureKeys('y') }).toEqual({ said: [], reached: [], taken: false })
    const first = run()
    // A paste that holds a y answers nothing.
    expect(consent.captureKeys('say yes')).toBe(true)
    consent.captureKeys('y')
    expect(await catalog).toEqual([{ id: 'm' }])
    expect((await first).map((event) => event.type)).toEqual(['finish'])
    await run()
    expect(reached).toEqual(['listModels', 'stream', 'stream'])
    expect(said).toEqual(['This page was opened with a link that sends your prompts to https://evil.test. Send them there? (y/n)', 'Prompts go to https://evil.test in this tab.'])
  })

  test('Esc is a no, and keys are not taken before anything asked', async () => {
    const { consent, run } = gate()
    expect(consent.captureKeys('n')).toBe(false)
    const first = run()
    await Promise.resolve()
    consent.captureKeys('\x1b')
    expect((await first)[0]?.type).toEqual('error')
  })
})
