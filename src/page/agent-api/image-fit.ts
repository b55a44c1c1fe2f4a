/**
 * The `resizeImage` option: a prompt image over a limit (3.75 MiB, or the prompt's 6 MiB
 * together) or of a type the models do not take is handed to it, and what it gives back is
 * checked like any image. `resizeImage: true` uses the browser's own decoder and canvas
 * (`resizeImageInBrowser`); elsewhere pass a function (e.g. one built on sharp in Node).
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import { base64Bytes, decodeHead, fromBase64, isBase64, MAX_IMAGE_BYTES, MAX_IMAGES_TOTAL_BYTES, sniffImageType, toBase64 } from '../../engine-worker/agent/prompt-input.ts'
import type { FxPromptBlock, FxPromptInput } from '../../shared/agent-api/types.ts'
import type { FxImageLimits, FxResizeImage } from '../../shared/agent-api/types.ts'
export type { FxImageLimits, FxResizeImage } from '../../shared/agent-api/types.ts'

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

/**
 * `input` (every image already base64) with each image that breaks a limit replaced by what
 * `resize` made of it. Images within the limits are left as they are; a failing `resize` rejects
 * with FX_PROMPT_IMAGE_RESIZE_FAILED naming the image.
 */
export async function fitImages(input: FxPromptInput, resize: FxResizeImage): Promise<FxPromptInput> {
  if (!Array.isArray(input)) return input
  const images = input.filter((b): b is Extract<FxPromptBlock, { data: string }> => b?.type === 'image' && typeof b.data === 'string')
  if (images.length === 0) return input
  const sizes = images.map((b) => base64Bytes(b.data.replace(/\s+/g, '')))
  const overTotal = sizes.reduce((a, b) => a + b, 0) > MAX_IMAGES_TOTAL_BYTES
  // With too much together, each image gets an equal share.
  const share = Math.min(MAX_IMAGE_BYTES, Math.floor(MAX_IMAGES_TOTAL_BYTES / images.length))
  let n = 0
  return Promise.all(
    input.map(async (block): Promise<FxPromptBlock> => {
      if (block?.type !== 'image' || typeof block.data !== 'string') return block
      const index = n++
      const data = block.data.replace(/\s+/g, '')
      if (!isBase64(data)) return block // the prompt check says what is wrong with it
      const type = sniffImageType(decodeHead(data))
      const size = sizes[index]!
      const maxBytes = overTotal ? share : MAX_IMAGE_BYTES
      if (type !== null && size <= maxBytes) return block
      let fitted: Awaited<ReturnType<FxResizeImage>>
      try {
        fitted = await resize({ mimeType: type ?? block.mimeType ?? '', data: fromBase64(data) }, { maxBytes, mimeTypes: IMAGE_TYPES })
      } catch (error) {
        throw new FxError(ErrorCode.FX_PROMPT_IMAGE_RESIZE_FAILED, `resizeImage failed on image ${index + 1}: ${error instanceof Error ? error.message : String(error)}`)
      }
      const out = fitted.data instanceof Uint8Array ? fitted.data : fitted.data instanceof ArrayBuffer ? new Uint8Array(fitted.data) : new Uint8Array(await fitted.data.arrayBuffer())
      return { type: 'image', mimeType: fitted.mimeType ?? sniffImageType(out) ?? 'application/octet-stream', data: toBase64(out) }
    }),
  )
}

/**
 * The browser's resizer: decodes with createImageBitmap and draws smaller on an OffscreenCanvas
 * as JPEG (on white: JPEG has no transparency) until it fits, keeping the aspect ratio.
 */
export async function resizeImageInBrowser(image: { mimeType: string; data: Uint8Array }, limits: FxImageLimits): Promise<{ mimeType: string; data: Uint8Array }> {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') {
    throw new Error('this runtime cannot decode images; pass a resizeImage function instead of true')
  }
  const bitmap = await createImageBitmap(new Blob([image.data as Uint8Array<ArrayBuffer>], { type: image.mimeType }))
  try {
    let scale = Math.min(1, Math.sqrt(limits.maxBytes / Math.max(1, image.data.length)) * 1.5)
    for (let attempt = 0; attempt < 8; attempt++) {
      const width = Math.max(1, Math.round(bitmap.width * scale))
      const height = Math.max(1, Math.round(bitmap.height * scale))
      const canvas = new OffscreenCanvas(width, height)
      const context = canvas.getContext('2d')
      if (!context) throw new Error('no 2D canvas here')
      context.fillStyle = '#fff'
      context.fillRect(0, 0, width, height)
      context.drawImage(bitmap, 0, 0, width, height)
      const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 })
      if (blob.size <= limits.maxBytes) return { mimeType: 'image/jpeg', data: new Uint8Array(await blob.arrayBuffer()) }
      scale *= Math.min(0.9, Math.sqrt(limits.maxBytes / blob.size))
    }
    throw new Error(`could not bring a ${bitmap.width}×${bitmap.height} image under ${limits.maxBytes} bytes`)
  } finally {
    bitmap.close()
  }
}
