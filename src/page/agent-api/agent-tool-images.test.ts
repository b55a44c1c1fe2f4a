// A tool may return images as the reference says: `{ type: "libfx.tool-result", text, images }`
// with base64 data. The model gets the text as the tool's result and the images right after the
// results (Chat Completions has no images in tool messages); they are kept with the session, so
// a later turn, or another agent on the same store, still sends them.
import { describe, expect, it } from 'vitest'
import { createInProcessWorker } from '../workspace/in-process-worker.ts'
import { createAgentWorkerApi } from '../../engine-worker/agent/agent-worker-api.ts'
import { memory } from './durability.ts'
import { linesOf, mockAgent, reply, toolCalls, useMock } from '../../../test/support/agent-api.ts'
import type { FxAgentOptions, FxTool } from '../../shared/agent-api/types.ts'

const mock = useMock()

const PNG_BYTES = Uint8Array.from({ length: 96 }, (_, i) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a][i] ?? i)
const PNG = Buffer.from(PNG_BYTES).toString('base64')

const screenshot: FxTool = {
  name: 'screenshot',
  description: 'Takes a screenshot.',
  execute: () => ({ type: 'libfx.tool-result', text: 'Here is the page.', images: [{ mimeType: 'image/png', data: PNG }] }),
}

type Body = { messages: Array<{ role: string; content: unknown; tool_call_id?: string }> }

/** The messages after the assistant's call: its result, then the user message with the images. */
const afterCall = (body: Body) => body.messages.slice(body.messages.findIndex((m) => m.role === 'tool'))

const inWorker = { worker: () => createInProcessWorker(createAgentWorkerApi()) }

describe('tool results with images', () => {
  for (const [where, extra] of [['in this thread', {}], ['in the worker', inWorker]] as Array<[string, FxAgentOptions]>) {
    it(`sends the text as the result and the images right after it (${where}), and keeps them for later turns`, async () => {
      await mock.script(toolCalls(['screenshot', '{}']), reply('I see the page.'), reply('Still the same page.'))
      const durability = memory()
      const agent = mockAgent(mock, { tools: [screenshot], durability, ...extra })
      const turn = agent.session('shots').prompt('look at the page')
      const lines = await linesOf(turn)
      expect((await turn.result).stopReason).toBe('end_turn')
      expect(lines.find((l) => l.type === 'tool_end')).toMatchObject({ name: 'screenshot', output: 'Here is the page.', isError: false, images: 1 })
      const expected = [
        { role: 'tool', tool_call_id: 'call_1', content: 'Here is the page.' },
        { role: 'user', content: [{ type: 'text', text: 'The images the tool call call_1 returned:' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } }] },
      ]
      expect(afterCall((await mock.requests())[1]!)).toEqual(expected)
      await agent.close()

      // Another agent on the same store: the image is still in the conversation it sends.
      const later = mockAgent(mock, { tools: [screenshot], durability, ...extra })
      expect((await later.session('shots').prompt('and now?').result).stopReason).toBe('end_turn')
      expect(afterCall((await mock.requests())[2]!).slice(0, 2)).toEqual(expected)
      await later.close()
    })
  }

  it('an image that is not what it claims, or not base64, reaches the model as a failed result', async () => {
    const liar: FxTool = { name: 'liar', execute: () => ({ type: 'libfx.tool-result', text: 'x', images: [{ mimeType: 'image/jpeg', data: PNG }] }) }
    const broken: FxTool = { name: 'broken', execute: () => ({ type: 'libfx.tool-result', text: 'x', images: [{ mimeType: 'image/png' }] }) }
    await mock.script(toolCalls(['liar', '{}'], ['broken', '{}']), reply('ok'))
    const agent = mockAgent(mock, { tools: [liar, broken] })
    expect((await agent.session('bad').prompt('try').result).stopReason).toBe('end_turn')
    const sent = (await mock.requests())[1]!
    expect(afterCall(sent)).toEqual([
      { role: 'tool', tool_call_id: 'call_1', content: 'Error: the tool liar failed: Image 1 claims image/jpeg but its bytes are image/png.' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Error: the tool broken returned images that are not { mimeType, data } with base64 data.' },
    ])
    await agent.close()
  })
})
