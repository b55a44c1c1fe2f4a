/**
 * Sandbox worker: `readline` over a run's stdin, which arrives whole (a pipe or a here-doc in
 * the shell): `createInterface` gives its lines as 'line' events, to `for await`, and to
 * `question()`, then 'close'.
 */

import { EventEmitter } from 'events'

type StdinLike = { stdin?: { [Symbol.asyncIterator]?: () => AsyncIterator<Uint8Array> } }

async function readAll(process: Record<string, unknown>): Promise<string[]> {
  const stdin = (process as StdinLike).stdin
  let text = ''
  if (stdin?.[Symbol.asyncIterator]) for await (const chunk of stdin as AsyncIterable<Uint8Array>) text += new TextDecoder().decode(chunk)
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  return lines
}

export function createReadline(process: Record<string, unknown>) {
  const createInterface = () => {
    const rl = new EventEmitter() as EventEmitter & Record<string, unknown>
    const lines = readAll(process)
    let closed = false
    const close = () => {
      if (closed) return
      closed = true
      rl.emit('close')
    }
    let taken = 0
    const next = async () => (await lines)[taken++]
    Object.assign(rl, {
      close,
      setPrompt() {},
      prompt() {},
      pause: () => rl,
      resume: () => rl,
      write() {},
      question(query: string, ...rest: unknown[]) {
        const callback = rest.at(-1) as ((answer: string) => void) | undefined
        ;(process.stdout as { write(text: string): void }).write(query)
        const answer = next().then((line) => line ?? '')
        if (typeof callback === 'function') void answer.then(callback)
        return answer
      },
      [Symbol.asyncIterator]: async function* () {
        for (let line = await next(); line !== undefined; line = await next()) yield line
        close()
      },
    })
    // 'line' listeners get every line that no question() took, on a later turn, then 'close'.
    void lines.then((all) =>
      setTimeout(() => {
        if (rl.listenerCount('line') === 0) return
        for (; taken < all.length; taken++) rl.emit('line', all[taken])
        close()
      }, 0),
    )
    return rl
  }
  const promisesInterface = () => {
    const rl = createInterface()
    return Object.assign(rl, { question: (query: string) => (rl.question as (q: string) => Promise<string>)(query) })
  }
  return { createInterface, promises: { createInterface: promisesInterface }, emitKeypressEvents() {}, clearLine() {}, cursorTo() {} }
}
