// `resizeImage`: an image over a limit or of a type the models do not take is handed to it
// before the prompt is stored, and what it gives back is what is stored and sent; images within
// the limits never reach it. A failing or useless resizer is told as such, and nothing is sent.
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '../../shared/errors.ts'
import { createFxEngine } from './create-fx-engine.ts'
import type { FxImageLimits } from './image-fit.ts'
import { engineModule, mockAgent, reply, useMock } from '../../../test/support/agent-api.ts'

const mock = useMock()

const MiB = 1024 * 1024
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0]
const BMP_HEAD = [0x42, 0x4d]
const bytes = (head: number[], size: number) => Uint8Array.from({ length: size }, (_, i) => head[i] ?? i % 251)
const b64 = (data: Uint8Array) => Buffer.from(data).toString('base64')
const SMALL_JPEG = bytes(JPEG_HEAD, 300)

type Sent = { messages: Array<{ role: string; content: unknown }> }
/** The image URLs of the last user message the model got. */
const sentImages = (body: Sent) => {
  const user = body.messages.filter((m) => m.role === 'user').at(-1)!
  return (user.content as Array<{ type: string; image_url?: { url: string } }>).filter((p) => p.type === 'image_url').map((p) => p.image_url!.url)
}

describe('resizeImage', () => {
  it('gets only the images over a limit or of another type, and what it returns is sent', async () => {
    await mock.script(reply('seen'))
    const calls: Array<{ mimeType: string; size: number; limits: FxImageLimits }> = []
    const agent = mockAgent(mock, {
      resizeImage: (image, limits) => (calls.push({ mimeType: image.mimeType, size: image.data.length, limits }), { data: SMALL_JPEG }),
    })
    const fine = bytes(PNG_HEAD, 1000)
    const turn = agent.session('r1').prompt([
      { type: 'text', text: 'compare' },
      { type: 'image', mimeType: 'image/png', data: b64(fine) },
      { type: 'image', mimeType: 'image/png', data: b64(bytes(PNG_HEAD, 4 * MiB)) },
      { type: 'image', mimeType: 'image/bmp', data: b64(bytes(BMP_HEAD, 2000)) },
    ])
    expect((await turn.result).stopReason).toBe('end_turn')
    expect(calls).toEqual([
      { mimeType: 'image/png', size: 4 * MiB, limits: { maxBytes: 3.75 * MiB, mimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] } },
      { mimeType: 'image/bmp', size: 2000, limits: { maxBytes: 3.75 * MiB, mimeTypes: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] } },
    ])
    const [sent] = await mock.requests()
    expect(sentImages(sent!)).toEqual([`data:image/png;base64,${b64(fine)}`, `data:image/jpeg;base64,${b64(SMALL_JPEG)}`, `data:image/jpeg;base64,${b64(SMALL_JPEG)}`])
    await agent.close()
  })

  it('images over 6 MiB together each get an equal share', async () => {
    await mock.script(reply('seen'))
    const limits: number[] = []
    const agent = mockAgent(mock, { resizeImage: (image, l) => (limits.push(l.maxBytes), { mimeType: 'image/jpeg', data: SMALL_JPEG }) })
    const big = b64(bytes(PNG_HEAD, 3.5 * MiB))
    const small = b64(bytes(PNG_HEAD, 100))
    const result = await agent.session('r2').prompt([{ type: 'image', mimeType: 'image/png', data: big }, { type: 'image', mimeType: 'image/png', data: big }, { type: 'image', mimeType: 'image/png', data: small }]).result
    expect(result.stopReason).toBe('end_turn')
    expect(limits).toEqual([2 * MiB, 2 * MiB])
    await agent.close()
  })

  it('a resizer that throws, or gives back an image still too large, rejects accepted and sends nothing', async () => {
    const throwing = mockAgent(mock, {
      resizeImage: () => {
        throw new Error('out of memory')
      },
    })
    const big = [{ type: 'image' as const, mimeType: 'image/png', data: b64(bytes(PNG_HEAD, 4 * MiB)) }]
    const failed = throwing.session('r3').prompt(big)
    await expect(failed.accepted).rejects.toMatchObject({ code: ErrorCode.FX_PROMPT_IMAGE_RESIZE_FAILED, message: 'resizeImage failed on image 1: out of memory' })
    expect((await failed.result).error?.code).toBe(ErrorCode.FX_PROMPT_IMAGE_RESIZE_FAILED)
    await throwing.close()

    const useless = mockAgent(mock, { resizeImage: (image) => image })
    await expect(useless.session('r4').prompt(big).accepted).rejects.toMatchObject({ code: ErrorCode.FX_PROMPT_IMAGE_TOO_LARGE })
    await useless.close()

    // true asks for the browser's canvas, which Node does not have: said, not crashed.
    const canvasless = mockAgent(mock, { resizeImage: true })
    await expect(canvasless.session('r5').prompt(big).accepted).rejects.toMatchObject({ code: ErrorCode.FX_PROMPT_IMAGE_RESIZE_FAILED, message: expect.stringContaining('pass a resizeImage function') })
    await canvasless.close()
    expect(await mock.requests()).toEqual([])
  })

  it('createFxEngine resizes a Blob too', async () => {
    await mock.script(reply('seen'))
    const engine = await createFxEngine({
      provider: { name: 'mock', baseUrl: mock.baseUrl, models: { 'mock-model': { contextWindow: 128000, supportsToolUse: true } } },
      model: 'mock-model',
      wasm: engineModule(),
      resizeImage: () => ({ data: new Blob([SMALL_JPEG]) }),
    })
    const result = await engine.prompt([{ type: 'text', text: 'what is it?' }, { type: 'image', data: new Blob([bytes(BMP_HEAD, 500)]) }]).result
    expect(result.stopReason).toBe('end_turn')
    expect(sentImages((await mock.requests())[0]!)).toEqual([`data:image/jpeg;base64,${b64(SMALL_JPEG)}`])
    await engine.close()
  })
})
