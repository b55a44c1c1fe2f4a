/**
 * The framing the agent stores records in: `u32 magic · u32 version · u32 jsonLen · JSON · bytes`
 * (the JSON holds the session's bookkeeping, the bytes its engine snapshot).
 */
const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function encodeEnvelope(magic: number, version: number, json: unknown, bytes: Uint8Array = new Uint8Array(0)): Uint8Array {
  const head = encoder.encode(JSON.stringify(json))
  const out = new Uint8Array(12 + head.length + bytes.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, magic, true)
  view.setUint32(4, version, true)
  view.setUint32(8, head.length, true)
  out.set(head, 12)
  out.set(bytes, 12 + head.length)
  return out
}

/** The envelope's version, JSON and bytes, or null when `bytes` is not one with this magic. */
export function decodeEnvelope(magic: number, bytes: Uint8Array): { version: number; json: unknown; bytes: Uint8Array } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (bytes.length < 12 || view.getUint32(0, true) !== magic) return null
  const len = view.getUint32(8, true)
  return { version: view.getUint32(4, true), json: JSON.parse(decoder.decode(bytes.subarray(12, 12 + len))), bytes: bytes.slice(12 + len) }
}
