/**
 * Bash worker side: SHA-1, synchronously. Rebuilding a commit from GitHub's JSON may hash
 * thousands of candidate texts (one per pair of time zones); crypto.subtle's promise per hash
 * made the worst case take seconds, this takes tens of milliseconds. Used only to compare
 * with ids GitHub gave, never for security.
 */

/** The SHA-1 of `bytes` as 40 hex digits. */
export function sha1Hex(bytes: Uint8Array): string {
  const length = bytes.length
  const blocks = ((length + 8) >> 6) + 1
  const words = new Uint32Array(blocks * 16)
  for (let i = 0; i < length; i++) words[i >> 2]! |= bytes[i]! << (24 - (i & 3) * 8)
  words[length >> 2]! |= 0x80 << (24 - (length & 3) * 8)
  // The bit length, as a 64-bit big-endian number in the last two words.
  words[blocks * 16 - 2] = Math.floor((length * 8) / 0x100000000)
  words[blocks * 16 - 1] = (length * 8) >>> 0
  let h0 = 0x67452301
  let h1 = 0xefcdab89
  let h2 = 0x98badcfe
  let h3 = 0x10325476
  let h4 = 0xc3d2e1f0
  const w = new Uint32Array(80)
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = words[block * 16 + t]!
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!
      w[t] = (x << 1) | (x >>> 31)
    }
    let a = h0
    let b = h1
    let c = h2
    let d = h3
    let e = h4
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? (b & c) | (~b & d) : t < 40 ? b ^ c ^ d : t < 60 ? (b & c) | (b & d) | (c & d) : b ^ c ^ d
      const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc : 0xca62c1d6
      const temp = (((a << 5) | (a >>> 27)) + f + e + k + w[t]!) >>> 0
      e = d
      d = c
      c = (b << 30) | (b >>> 2)
      b = a
      a = temp
    }
    h0 = (h0 + a) >>> 0
    h1 = (h1 + b) >>> 0
    h2 = (h2 + c) >>> 0
    h3 = (h3 + d) >>> 0
    h4 = (h4 + e) >>> 0
  }
  return [h0, h1, h2, h3, h4].map((h) => (h >>> 0).toString(16).padStart(8, '0')).join('')
}
