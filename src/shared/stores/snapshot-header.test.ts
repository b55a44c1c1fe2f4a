import { describe, expect, it } from 'vitest'
import { encodeSnapshot, readSnapshotHeader, snapshotId, type SnapshotMeta } from './snapshot-header.ts'

const META: SnapshotMeta = { id: 'sabc-1', title: 'Counting files', createdMs: 1_700_000_000_000, updatedMs: 1_700_000_500_000, turns: 3, firstPrompt: 'count the files' }

/** Raw header bytes, for shapes encodeSnapshot would never write. */
function raw(magic: number, version: number, metaLen: number, rest: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + rest.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, magic, true)
  view.setUint32(4, version, true)
  view.setUint32(8, metaLen, true)
  out.set(rest, 12)
  return out
}

describe('readSnapshotHeader', () => {
  it('reads the version and every metadata field, never the body', () => {
    const bytes = encodeSnapshot(META, '{"messages": not even json')
    expect(readSnapshotHeader(bytes)).toEqual({ version: 2, meta: META })
    expect(snapshotId(bytes)).toBe('sabc-1')
  })

  it('reads a header inside a larger buffer (a subarray with an offset)', () => {
    const bytes = encodeSnapshot(META, '{}')
    const padded = new Uint8Array(bytes.length + 7)
    padded.set(bytes, 5)
    expect(readSnapshotHeader(padded.subarray(5, 5 + bytes.length))?.meta).toEqual(META)
  })

  it('takes the version from the low 16 bits, as the engine does', () => {
    const bytes = encodeSnapshot(META, '{}', 0x0005_0001)
    expect(readSnapshotHeader(bytes)?.version).toBe(1)
  })

  it('gives defaults for missing or mistyped fields other than the id', () => {
    const meta = new TextEncoder().encode(JSON.stringify({ id: 's1', title: 7, turns: 'many' }))
    expect(readSnapshotHeader(raw(0x4e535846, 2, meta.length, meta))).toEqual({
      version: 2,
      meta: { id: 's1', title: '', createdMs: 0, updatedMs: 0, turns: 0, firstPrompt: '' },
    })
  })

  it('refuses bytes that are not a snapshot: short, wrong magic, cut-off meta, bad JSON, no id, bad UTF-8', () => {
    const good = encodeSnapshot(META, '{}')
    const meta = (text: string) => new TextEncoder().encode(text)
    const cases = [
      new Uint8Array(0),
      good.subarray(0, 11),
      raw(0x4e535847, 2, 2, meta('{}')),
      good.subarray(0, 20),
      raw(0x4e535846, 2, 5, meta('{"id"')),
      raw(0x4e535846, 2, 9, meta('{"id":""}')),
      raw(0x4e535846, 2, 4, meta('null')),
      raw(0x4e535846, 2, 10, new Uint8Array([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])),
    ]
    expect(cases.map(readSnapshotHeader)).toEqual(cases.map(() => null))
  })
})
