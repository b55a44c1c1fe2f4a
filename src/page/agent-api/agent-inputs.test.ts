import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { listModels } from './list-models.ts'
import { checkPrompt, sniffImageType } from '../../engine-worker/agent/prompt-input.ts'
import { mockAgent, reply, useMock } from '../../../test/support/agent-api.ts'
import type { FxAgentEvent } from '../../shared/agent-api/types.ts'

const mock = useMock()

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const base64 = (bytes: number[], size = 64) => Buffer.from(Uint8Array.from({ length: size }, (_, i) => bytes[i] ?? i % 251)).toString('base64')
const image = (bytes: number[], mimeType = 'image/png', size = 64) => ({ type: 'image' as const, mimeType, data: base64(bytes, size) })

describe('prompt images', () => {
  it('recognises PNG, JPEG, GIF and WebP by their bytes', () => {
    expect(sniffImageType(Uint8Array.from(PNG))).toBe('image/png')
    expect(sniffImageType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg')
    expect(sniffImageType(new TextEncoder().encode('GIF89a'))).toBe('image/gif')
    expect(sniffImageType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp')
    expect(sniffImageType(new TextEncoder().encode('<svg xmlns='))).toBe(null)
  })

  it('refuses a claimed type the bytes contradict, a ninth image, and images over 3.75 MiB each or 6 MiB together', () => {
    const code = (fn: () => unknown) => {
      try {
        fn()
        return 'ok'
      } catch (error) {
        return (error as { code: string }).code
      }
    }
    expect(code(() => checkPrompt([image([0xff, 0xd8, 0xff], 'image/png')]))).toBe(ErrorCode.FX_PROMPT_IMAGE_UNSUPPORTED)
    expect(code(() => checkPrompt([image([0x3c, 0x73, 0x76, 0x67], 'image/png')]))).toBe(ErrorCode.FX_PROMPT_IMAGE_UNSUPPORTED)
    expect(code(() => checkPrompt([{ type: 'image', mimeType: 'image/png', data: 'not base64!' }]))).toBe(ErrorCode.FX_PROMPT_IMAGE_INVALID)
    expect(code(() => checkPrompt(Array.from({ length: 9 }, () => image(PNG))))).toBe(ErrorCode.FX_PROMPT_IMAGE_LIMIT)
    expect(code(() => checkPrompt(Array.from({ length: 8 }, () => image(PNG))))).toBe('ok')
    expect(code(() => checkPrompt([image(PNG, 'image/png', 3.75 * 1024 * 1024 + 3)]))).toBe(ErrorCode.FX_PROMPT_IMAGE_TOO_LARGE)
    expect(code(() => checkPrompt([image(PNG, 'image/png', 3 * 1024 * 1024), image(PNG, 'image/png', 3 * 1024 * 1024 + 3)]))).toBe(ErrorCode.FX_PROMPT_IMAGE_TOO_LARGE)
    expect(code(() => checkPrompt([image(PNG, 'image/png', 3 * 1024 * 1024), image(PNG, 'image/png', 3 * 1024 * 1024)]))).toBe('ok')
  })

  it('sends a prompt image to the model as an image part of the user message', async () => {
    await mock.script(reply('a chart'))
    const agent = mockAgent(mock)
    const png = image(PNG)
    const result = await agent.session('img').prompt([{ type: 'text', text: 'What is this?' }, png]).result
    expect(result.stopReason).toBe('end_turn')
    const [body] = await mock.requests()
    expect(body!.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png.data}` } },
      ],
    })
    await agent.close()
  })

  it('takes an image as bytes, an ArrayBuffer, a Blob or a File, and sends each as base64 with the type its bytes say', async () => {
    await mock.script(reply('four pictures'))
    const agent = mockAgent(mock)
    const bytes = Uint8Array.from([...PNG, ...Array.from({ length: 56 }, (_, i) => i)])
    const expected = `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`
    const turn = agent.session('bytes').prompt([
      { type: 'text', text: 'What are these?' },
      { type: 'image', data: bytes },
      { type: 'image', data: bytes.slice().buffer },
      { type: 'image', data: new Blob([bytes]) },
      { type: 'image', data: new File([bytes], 'chart.png', { type: 'image/png' }) },
    ])
    expect(await turn.accepted).toEqual({ messageId: expect.any(String), sessionId: 'bytes' })
    expect((await turn.result).stopReason).toBe('end_turn')
    const [body] = await mock.requests()
    expect(body!.messages.at(-1)!.content).toEqual([{ type: 'text', text: 'What are these?' }, ...Array.from({ length: 4 }, () => ({ type: 'image_url', image_url: { url: expected } }))])
    await agent.close()
  })

  it('a Blob that is not an image: accepted rejects with the image code, and nothing is stored or sent', async () => {
    const agent = mockAgent(mock)
    const session = agent.session('not-image')
    const turn = session.prompt([{ type: 'text', text: 'look' }, { type: 'image', data: new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], { type: 'image/svg+xml' }) }])
    await expect(turn.accepted).rejects.toMatchObject({ code: ErrorCode.FX_PROMPT_IMAGE_UNSUPPORTED })
    expect((await turn.result).error?.code).toBe(ErrorCode.FX_PROMPT_IMAGE_UNSUPPORTED)
    expect(await session.checkpoint()).toEqual(new Uint8Array(0))
    expect((await mock.requests()).length).toBe(0)
    await agent.close()
  })
})

describe('diagnostics and catalogs', () => {
  it('onEvent reports requests and responses without the key', async () => {
    await mock.script(reply('hi'))
    const events: FxAgentEvent[] = []
    const agent = mockAgent(mock, {
      provider: { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': {} }, apiKey: 'sk-secret-123' },
      onEvent: (e) => events.push(e),
    })
    await agent.session('diag').prompt('hello').result
    expect(events.map((e) => e.type)).toEqual(['model.request', 'model.response'])
    expect(events[0]).toMatchObject({ sessionId: 'diag', provider: 'mock', model: 'mock-model', step: 1, attempt: 1 })
    expect(events[1]).toMatchObject({ finishReason: 'stop' })
    expect(JSON.stringify(events)).not.toContain('sk-secret-123')
    await agent.close()
  })

  it('onEvent reports a rate-limited request, its retry and the status, and the turn goes on', async () => {
    await mock.script({ status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '0' } }, reply('after the retry'))
    const events: FxAgentEvent[] = []
    const agent = mockAgent(mock, { onEvent: (e) => events.push(e) })
    const result = await agent.session('retry').prompt('hi').result
    expect(result.stopReason).toBe('end_turn')
    expect(events.map((e) => e.type)).toEqual(['model.request', 'model.error', 'model.retry', 'model.request', 'model.response'])
    expect(events[0]).toMatchObject({ step: 1, attempt: 1 })
    expect(events[1]).toMatchObject({ code: ErrorCode.FX_MODEL_RATE_LIMITED, status: 429, retryable: true })
    expect(events[2]).toMatchObject({ attempt: 2 })
    expect(events[3]).toMatchObject({ step: 1, attempt: 2 })
    await agent.close()
  })

  it('listModels lists a server catalog by id', async () => {
    expect(await listModels({ baseUrl: mock.baseUrl, apiKey: 'k' })).toEqual(['mock-model'])
  })
})
