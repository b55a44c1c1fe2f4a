import { describe, expect, it } from 'vitest'
import { holdMessages } from './held-messages.ts'

/** A worker scope stand-in: messages are dispatched on it; what it posts is recorded. */
function scope() {
  const target = new EventTarget()
  const posted: unknown[] = []
  const send = (data: unknown) => target.dispatchEvent(new MessageEvent('message', { data }))
  return { scope: Object.assign(target, { postMessage: (message: unknown) => void posted.push(message) }), send, posted }
}

describe('messages held until the engine host listens', () => {
  it('hands the messages that came first to the first listener, in order, then the later ones as they come', () => {
    const { scope: s, send, posted } = scope()
    const endpoint = holdMessages(s)
    send('start')
    send('keys')
    const seen: unknown[] = []
    endpoint.addEventListener('message', (event) => seen.push((event as MessageEvent).data))
    send('resize')
    expect(seen).toEqual(['start', 'keys', 'resize'])
    endpoint.postMessage('answer')
    expect(posted).toEqual(['answer'])
  })

  it('replays them once: a second listener sees only what comes after it', () => {
    const { scope: s, send } = scope()
    const endpoint = holdMessages(s)
    send('early')
    const first: unknown[] = []
    const second: unknown[] = []
    endpoint.addEventListener('message', { handleEvent: (event) => first.push((event as MessageEvent).data) })
    endpoint.addEventListener('message', (event) => second.push((event as MessageEvent).data))
    send('late')
    expect([first, second]).toEqual([['early', 'late'], ['late']])
  })
})
