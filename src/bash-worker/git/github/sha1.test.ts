import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha1Hex } from './sha1'

describe('sha1Hex', () => {
  it("agrees with Node's SHA-1 on every length around the block boundaries", () => {
    for (let n = 0; n < 300; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff)
      expect(sha1Hex(bytes)).toBe(createHash('sha1').update(bytes).digest('hex'))
    }
  })
})
