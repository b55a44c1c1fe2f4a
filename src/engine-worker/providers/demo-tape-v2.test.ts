import { describe, expect, test } from 'vitest'
import { matchTurn, parseDemoTape, pickDemoResponse, promptSimilarity } from './demo-tape.ts'
import type { ChatMessage } from '../../shared/protocol/model-events.ts'

const tape = parseDemoTape({
  version: 2,
  turns: [
    { prompt: "What's in this project?", responses: [{ text: 'Let me look.', toolCalls: [{ name: 'run_command', arguments: { command: 'ls' } }] }, { text: 'A README.' }] },
    { prompt: 'Count the lines of the README', responses: [{ text: 'It has 3 lines.' }] },
    { prompt: 'Say goodbye', match: ['bye'], responses: [{ text: 'Goodbye!' }] },
  ],
  fallback: 'Not on this tape.',
  files: { 'README.md': '# Hi\n' },
})
const user = (content: string): ChatMessage => ({ role: 'user', content })

describe('version 2 tapes', () => {
  test('parse with prompts and files; a v2 turn needs its prompt; files must be text', () => {
    expect(tape.files).toEqual({ 'README.md': '# Hi\n' })
    expect(() => parseDemoTape({ version: 2, turns: [{ responses: [{ text: 'x' }] }], fallback: 'f' })).toThrow('turns[0].prompt must be a non-empty string')
    expect(() => parseDemoTape({ version: 2, turns: [], fallback: 'f', files: { a: 1 } })).toThrow('files["a"] must be a string')
    expect(() => parseDemoTape({ version: 3, turns: [], fallback: 'f' })).toThrow('version must be 1 or 2')
  })

  test('a prompt picks its turn exactly (case, spacing, punctuation aside), then by closeness, then by keyword', () => {
    expect(matchTurn(tape, 'what’s in   this project')).toBe(0)
    expect(matchTurn(tape, 'count the lines in the README please')).toBe(1)
    expect(promptSimilarity('count the lines in the README please', 'Count the lines of the README')).toBeGreaterThanOrEqual(0.6)
    expect(matchTurn(tape, 'ok bye now')).toBe(2)
    expect(matchTurn(tape, 'deploy it to production')).toBe(-1)
  })

  test('an unmatched prompt gets the fallback and the next recorded prompt as a suggestion', () => {
    expect(pickDemoResponse(tape, [user('deploy it')])).toEqual({ text: 'Not on this tape.\n\nTry: “What\'s in this project?”' })
    const afterFirst: ChatMessage[] = [user("what's in this project?"), { role: 'assistant', content: 'A README.' }, user('deploy it')]
    expect(pickDemoResponse(tape, afterFirst)).toEqual({ text: 'Not on this tape.\n\nTry: “Count the lines of the README”' })
  })

  test('a prompt the tape did not record says which recording it replays instead, and only in its first reply', () => {
    const messages: ChatMessage[] = [user('count the lines in the README please')]
    const first = pickDemoResponse(tape, messages)
    expect(first?.text?.split('\n')[0]).toBe('*Offline demo: it only has recorded answers and no recording for this prompt, so this replays the closest recorded one, “Count the lines of the README”.*')
    messages.push({ role: 'assistant', content: first?.text ?? '' }, { role: 'tool', toolCallId: 'c1', content: '3' })
    expect(pickDemoResponse(tape, messages)?.text ?? '').not.toContain('Offline demo')
    expect(pickDemoResponse(tape, [user('Count the lines of the README')])?.text ?? '').not.toContain('Offline demo')
  })

  test('the matched turn replays its responses in order', () => {
    const messages: ChatMessage[] = [user("What's in this project?")]
    expect(pickDemoResponse(tape, messages)?.toolCalls?.[0]?.arguments.command).toBe('ls')
    messages.push({ role: 'assistant', content: 'Let me look.' }, { role: 'tool', toolCallId: 'c1', content: 'README.md' })
    expect(pickDemoResponse(tape, messages)).toEqual({ text: 'A README.' })
  })
})

describe('recorded pace', async () => {
  const { vi } = await import('vitest')
  const { createDemoProvider } = await import('./demo-provider.ts')

  test('a response with ms streams its pieces evenly over that time, then finishes', async () => {
    vi.useFakeTimers()
    try {
      const words = 'one two three four five six seven eight nine'
      const provider = createDemoProvider({ tape: parseDemoTape({ version: 2, turns: [{ prompt: 'go', responses: [{ text: words, ms: 400 }] }], fallback: 'f' }) })
      const seen: Array<[number, string]> = []
      const start = Date.now()
      const done = provider.stream({ model: 'demo', messages: [user('go')], tools: [] }, (event) => seen.push([Date.now() - start, event.type]), new AbortController().signal)
      await vi.advanceTimersByTimeAsync(99)
      expect(seen).toEqual([]) // three pieces over 400 ms: the first at 100 ms
      await vi.advanceTimersByTimeAsync(400)
      await done
      expect(seen.filter(([, type]) => type === 'text_delta').map(([at]) => at)).toEqual([100, 200, 300])
      expect(seen.at(-1)).toEqual([400, 'finish'])
    } finally {
      vi.useRealTimers()
    }
  })
})
