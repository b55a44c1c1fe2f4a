/**
 * Checks a prompt before anything is stored: text or text and image blocks. Images are base64
 * PNG, JPEG, GIF or WebP, recognised by their bytes (a claimed type that the bytes contradict is
 * refused); at most 8 per prompt, 3.75 MiB each and 6 MiB together (docs/ARCHITECTURE.md,
 * "Limits").
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { ChatMessage, ModelRequest } from '../../shared/protocol/model-events.ts'
import type { FxPromptBlock, FxPromptInput } from '../../shared/agent-api/types.ts'

/** Prompt image limits (docs/ARCHITECTURE.md, "Limits"). */
export const MAX_IMAGES = 8
export const MAX_IMAGE_BYTES = 3.75 * 1024 * 1024
export const MAX_IMAGES_TOTAL_BYTES = 6 * 1024 * 1024

/** A checked prompt: its text, and its images as `data:` URLs in order. */
export type CheckedPrompt = { text: string; images: Array<{ mimeType: string; data: string; bytes: number }> }

/** The image type the first bytes say, or null. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b)
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif'
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp'
  return null
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Whether `data` (whitespace removed) is base64 worth decoding. */
export const isBase64 = (data: string): boolean => data.length >= 16 && data.length % 4 === 0 && BASE64.test(data)

/** Decoded size of base64 text without decoding it all. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0
  return Math.floor((data.length * 3) / 4) - padding
}

export function decodeHead(data: string): Uint8Array {
  const head = atob(data.slice(0, 24))
  return Uint8Array.from(head, (c) => c.charCodeAt(0))
}

const invalid = (message: string) => new FxError(ErrorCode.FX_PROMPT_INVALID, message)

/** Checks `input`; throws FxError `FX_PROMPT_INVALID` / `FX_PROMPT_IMAGE_*` saying what is wrong. */
export function checkPrompt(input: FxPromptInput): CheckedPrompt {
  if (typeof input === 'string') return { text: input, images: [] }
  if (!Array.isArray(input) || input.length === 0) throw invalid('A prompt is a string or a non-empty array of text and image blocks.')
  const texts: string[] = []
  const blocks: Array<{ mimeType: string; data: string }> = []
  for (const block of input as FxPromptBlock[]) {
    if (block?.type === 'text' && typeof block.text === 'string') {
      texts.push(block.text)
      continue
    }
    if (block?.type !== 'image' || typeof block.data !== 'string' || typeof block.mimeType !== 'string') {
      throw invalid('Each prompt block is { type: "text", text } or { type: "image", mimeType, data } with base64 data.')
    }
    blocks.push({ mimeType: block.mimeType, data: block.data })
  }
  return { text: texts.join('\n\n'), images: checkImages(blocks, 'A prompt') }
}

/**
 * Checks base64 images against the limits (`whose`: "A prompt", "The tool x's result"); throws
 * FxError `FX_PROMPT_IMAGE_*` naming the image and what is wrong.
 */
export function checkImages(blocks: ReadonlyArray<{ mimeType: string; data: string }>, whose: string): CheckedPrompt['images'] {
  if (blocks.length > MAX_IMAGES) throw new FxError(ErrorCode.FX_PROMPT_IMAGE_LIMIT, `${whose} takes at most ${MAX_IMAGES} images.`)
  const images: CheckedPrompt['images'] = []
  let total = 0
  for (const block of blocks) {
    const n = images.length + 1
    const data = block.data.replace(/\s+/g, '')
    if (!isBase64(data)) throw new FxError(ErrorCode.FX_PROMPT_IMAGE_INVALID, `Image ${n} is not base64 data.`)
    const size = base64Bytes(data)
    if (size > MAX_IMAGE_BYTES) throw new FxError(ErrorCode.FX_PROMPT_IMAGE_TOO_LARGE, `Image ${n} is ${(size / 1048576).toFixed(2)} MiB; the limit is 3.75 MiB.`)
    total += size
    if (total > MAX_IMAGES_TOTAL_BYTES) throw new FxError(ErrorCode.FX_PROMPT_IMAGE_TOO_LARGE, `The images of ${whose.replace(/^A /, 'one ').replace(/^The /, 'the ')} may be 6 MiB together.`)
    const sniffed = sniffImageType(decodeHead(data))
    if (sniffed === null) throw new FxError(ErrorCode.FX_PROMPT_IMAGE_UNSUPPORTED, `Image ${n} is not a PNG, JPEG, GIF or WebP image.`)
    const claimed = block.mimeType.toLowerCase().replace('image/jpg', 'image/jpeg')
    if (claimed !== sniffed) throw new FxError(ErrorCode.FX_PROMPT_IMAGE_UNSUPPORTED, `Image ${n} claims ${block.mimeType} but its bytes are ${sniffed}.`)
    images.push({ mimeType: sniffed, data, bytes: size })
  }
  return images
}

/** Whether `input` has an image block. */
export const hasImages = (input: FxPromptInput): boolean => Array.isArray(input) && input.some((block) => block?.type === 'image')

/** Whether some image of `input` is bytes, a Blob or a File (read before the prompt is stored). */
export function hasBinaryImages(input: FxPromptInput): boolean {
  return Array.isArray(input) && input.some((block) => block?.type === 'image' && typeof block.data !== 'string')
}

/** `input` with every image as base64 and its type (sniffed from the bytes when not given). */
export async function inlineImages(input: FxPromptInput): Promise<FxPromptInput> {
  if (!Array.isArray(input)) return input
  return Promise.all(
    input.map(async (block): Promise<FxPromptBlock> => {
      if (block?.type !== 'image' || typeof block.data === 'string') return block
      const data = block.data
      const bytes = data instanceof Uint8Array ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : typeof Blob !== 'undefined' && data instanceof Blob ? new Uint8Array(await data.arrayBuffer()) : null
      if (!bytes) throw invalid('An image block\'s data is base64 text, bytes (Uint8Array, ArrayBuffer), a Blob or a File.')
      const mimeType = block.mimeType ?? sniffImageType(bytes) ?? (data instanceof Blob && data.type ? data.type : 'application/octet-stream')
      return { type: 'image', mimeType, data: toBase64(bytes) }
    }),
  )
}

/** Base64 text's bytes. */
export function fromBase64(data: string): Uint8Array {
  const binary = atob(data)
  const out = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
  return out
}

export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/**
 * Where an image sits in the text the engine keeps (a prompt's, keyed by its messageId, or a tool
 * result's). The engine stores text only; the marker is swapped for the image (kept with the
 * session) just before a request is sent.
 */
export function imageMarker(key: string, index: number): string {
  return `\n⟦fx-image:${key}:${index}⟧`
}

/** Finds image markers in a user message's text (see imageMarker). */
export const IMAGE_MARKER = /\n?⟦fx-image:([A-Za-z0-9._-]+):(\d+)⟧/g

/** Swaps image markers in user messages and tool results for the images they stand for. */
export function withImages(request: ModelRequest, images: (key: string, index: number) => { mimeType: string; data: string } | undefined): ModelRequest {
  if (!request.messages.some((m) => (m.role === 'user' || m.role === 'tool') && m.content.includes('⟦fx-image:'))) return request
  const messages = request.messages.map((m): ChatMessage => {
    if ((m.role !== 'user' && m.role !== 'tool') || !m.content.includes('⟦fx-image:')) return m
    const found: Array<{ mimeType: string; data: string }> = []
    const content = m.content.replace(IMAGE_MARKER, (_all, key: string, index: string) => {
      const image = images(key, Number(index))
      if (image) found.push(image)
      return ''
    })
    return found.length > 0 ? { ...m, content, images: found } : { ...m, content }
  })
  return { ...request, messages }
}
