import { describe, expect, it } from 'vitest'
import { constants, gunzipSync, gzipSync } from './zlib-stub'

describe('zlib stub', () => {
  it('fails gzip and gunzip with a clear message and keeps the level constants', () => {
    expect(() => gzipSync(new Uint8Array())).toThrow('gzip is not available in the browser workspace')
    expect(() => gunzipSync(new Uint8Array())).toThrow('gzip is not available in the browser workspace')
    expect(constants).toEqual({ Z_BEST_SPEED: 1, Z_BEST_COMPRESSION: 9, Z_DEFAULT_COMPRESSION: -1 })
  })
})
