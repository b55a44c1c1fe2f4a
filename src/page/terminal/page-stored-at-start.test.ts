import { describe, expect, test } from 'vitest'
import { storedAtStart, storedStartFields } from './page-stored-at-start.ts'

const session = { bytes: new Uint8Array([1, 2]), readOnly: false }

function reads(resume: Promise<{ session?: typeof session; notice?: string }> = Promise.resolve({ session })) {
  return {
    config: Promise.resolve({ model: 'saved-model', provider: 'ollama', mode: 'ask' }),
    history: Promise.resolve(['ls', 'pwd']),
    resume,
    agents: Promise.resolve({ text: 'Use tabs.', notices: ['AGENTS.md was cut at 32 KiB.'] }),
  }
}

describe('storedAtStart', () => {
  test('nothing to boot with until every read is in; then the engine boots with all of it', async () => {
    let answer!: (value: { session?: typeof session }) => void
    const stored = storedAtStart(reads(new Promise((resolve) => (answer = resolve))), { pageChoosesModel: false, screenReader: false })
    await Promise.resolve()
    expect(stored.now(), 'the session is still being read').toBeNull()
    expect(storedStartFields(stored.now(), ['page notice'])).toEqual({ notices: ['page notice'], history: [], restorePending: true })
    answer({ session })
    await stored.later
    expect(storedStartFields(stored.now(), ['page notice'])).toEqual({
      config: { model: 'saved-model', provider: 'ollama', mode: 'ask' },
      history: ['ls', 'pwd'],
      notices: ['page notice', 'AGENTS.md was cut at 32 KiB.'],
      instructions: 'Use tabs.',
      resume: session,
    })
  })

  test("a model named by the page wins over the saved one; screen-reader mode asked by the page is on", async () => {
    const { state } = await storedAtStart(reads(), { pageChoosesModel: true, screenReader: true }).later
    expect(state.config).toEqual({ mode: 'ask', a11y: 'on' })
  })

  test("why no session was resumed is told with the other notices", async () => {
    const { state, session: resumed } = await storedAtStart(reads(Promise.resolve({ notice: 'No saved session to resume.' })), { pageChoosesModel: false, screenReader: false }).later
    expect(resumed).toBeUndefined()
    expect(state.notices).toEqual(['AGENTS.md was cut at 32 KiB.', 'No saved session to resume.'])
  })
})
