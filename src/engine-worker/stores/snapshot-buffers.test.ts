import { afterEach, describe, expect, it } from 'vitest'
import { idbSessionStore } from './idb-session-store.ts'
import { copyIntoSpare, letGoOf, movesWithItsBuffer, recycleSnapshotBuffers, reserveSpares } from '../../shared/snapshot-buffers.ts'
import { freshIndexedDB, sameBytes } from '../../../test/support/idb.ts'

const MB = 1024 * 1024

/** A snapshot-sized array of `size` bytes, each from `seed`. */
function snapshot(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i += 997) bytes[i] = (seed + i) & 0xff
  return bytes
}

afterEach(() => recycleSnapshotBuffers(false))

describe('snapshot buffers', () => {
  it('copies into a fresh buffer while recycling is off, and keeps nothing let go', () => {
    const first = copyIntoSpare(snapshot(MB, 1))
    letGoOf(first)
    const second = copyIntoSpare(snapshot(MB, 2))
    expect(second.buffer).not.toBe(first.buffer)
    expect(second.byteLength).toBe(second.buffer.byteLength)
  })

  it('reuses a buffer let go of for the next snapshot of about its size, with the new bytes', () => {
    recycleSnapshotBuffers()
    const first = copyIntoSpare(snapshot(MB, 1))
    expect(first.buffer.byteLength).toBeGreaterThan(MB) // room for a few more turns
    letGoOf(first)
    const next = snapshot(MB + 4096, 2)
    const copy = copyIntoSpare(next)
    expect(copy.buffer).toBe(first.buffer)
    expect(sameBytes(copy, next)).toBe(true)
    expect(movesWithItsBuffer(copy)).toBe(true)
  })

  it('does not hand a much larger buffer to a small snapshot, nor pool small ones', () => {
    recycleSnapshotBuffers()
    const big = copyIntoSpare(snapshot(4 * MB, 1))
    letGoOf(big)
    expect(copyIntoSpare(snapshot(MB, 2)).buffer).not.toBe(big.buffer)
    const small = copyIntoSpare(snapshot(1000, 3))
    letGoOf(small)
    expect(copyIntoSpare(snapshot(1000, 4)).buffer).not.toBe(small.buffer)
  })

  it('makes two spares ahead for snapshots of a given size, used by the next copies', () => {
    reserveSpares(MB) // off: nothing
    recycleSnapshotBuffers()
    reserveSpares(MB)
    const first = copyIntoSpare(snapshot(MB + 100, 1))
    const second = copyIntoSpare(snapshot(MB + 200, 2))
    expect(first.buffer.byteLength).toBe(MB + MB / 8)
    expect(second.buffer.byteLength).toBe(MB + MB / 8)
    expect(second.buffer).not.toBe(first.buffer)
    expect(sameBytes(first, snapshot(MB + 100, 1))).toBe(true)
    // Both taken: the third is a new buffer.
    const third = copyIntoSpare(snapshot(MB, 3))
    expect([first.buffer, second.buffer]).not.toContain(third.buffer)
  })

  it('moves a view to another thread with its buffer only when the rest is room to grow', () => {
    const memory = new Uint8Array(8 * MB)
    expect(movesWithItsBuffer(memory.subarray(0, MB))).toBe(false) // the rest would go along
    expect(movesWithItsBuffer(memory.subarray(MB, 2 * MB))).toBe(false)
    expect(movesWithItsBuffer(memory.subarray(0, 5 * MB))).toBe(true)
  })
})

describe('the session store lets go of what it compared with', () => {
  it('recycles handed-over bytes once a newer commit is stored, and what it stored stays whole', async () => {
    recycleSnapshotBuffers()
    const store = idbSessionStore({ indexedDB: freshIndexedDB(), handsOverBytes: true })
    const first = copyIntoSpare(snapshot(MB, 1))
    const { revision } = await store.commit('s1', first, undefined)
    const second = copyIntoSpare(snapshot(MB, 2))
    expect(second.buffer).not.toBe(first.buffer) // the store still compares with the first
    await store.commit('s1', second, revision)
    const third = copyIntoSpare(snapshot(MB, 3))
    expect(third.buffer).toBe(first.buffer)
    expect(sameBytes((await store.load('s1'))!.bytes, snapshot(MB, 2))).toBe(true)
  })

  it('never recycles bytes it lent out (warm)', async () => {
    recycleSnapshotBuffers()
    const indexedDB = freshIndexedDB()
    const lender = idbSessionStore({ indexedDB, handsOverBytes: true })
    const first = copyIntoSpare(snapshot(MB, 1))
    const { revision } = await lender.commit('s1', first, undefined)
    const lent = await lender.warm('s1')
    expect(lent!.bytes).toBe(first)
    await lender.commit('s1', copyIntoSpare(snapshot(MB, 2)), revision)
    expect(copyIntoSpare(snapshot(MB, 3)).buffer).not.toBe(first.buffer)
    expect(sameBytes(lent!.bytes, snapshot(MB, 1))).toBe(true)
  })
})
