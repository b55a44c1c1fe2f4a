import { describe, expect, it } from 'vitest'
import { commonPrefix, commonSuffix, joinParts, planParts, type Part, type PartsPlan } from './session-parts.ts'

const PART = 100

/** `length` bytes of a repeating pattern, so every offset holds a known byte. */
function bytesOf(length: number, seed = 0): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 251)
}

/** Applies `plan` to `stored` (part key → bytes) as the store would, and returns the new map. */
function apply(stored: Map<number, Uint8Array>, plan: PartsPlan, bytes: Uint8Array): Map<number, Uint8Array> {
  const next = new Map(stored)
  for (const key of plan.removes) next.delete(key)
  for (const write of plan.writes) next.set(write.key, bytes.slice(write.from, write.to))
  return next
}

/** Commits `versions` one after another; returns each plan and the final stored parts. */
function commitAll(versions: Uint8Array[]): { plans: PartsPlan[]; stored: Map<number, Uint8Array>; parts: Part[] } {
  let stored = new Map<number, Uint8Array>()
  let previous: { bytes: Uint8Array; parts: Part[] } | null = null
  let nextKey = 0
  const plans: PartsPlan[] = []
  for (const bytes of versions) {
    const plan = planParts(bytes, previous, nextKey, PART)
    stored = apply(stored, plan, bytes)
    expect(joinParts(plan.parts, stored)).toEqual(bytes)
    expect([...stored.keys()].sort()).toEqual(plan.parts.map((p) => p.key).sort())
    previous = { bytes, parts: plan.parts }
    nextKey = plan.nextKey
    plans.push(plan)
  }
  return { plans, stored, parts: plans.at(-1)!.parts }
}

const written = (plan: PartsPlan) => plan.writes.reduce((n, w) => n + w.to - w.from, 0)

describe('planParts', () => {
  it('writes every part of a first commit, in even pieces no larger than a part', () => {
    const plan = planParts(bytesOf(250), null, 7, PART)
    expect(plan.parts).toEqual([
      { key: 7, length: 83 },
      { key: 8, length: 83 },
      { key: 9, length: 84 },
    ])
    expect([written(plan), plan.removes, plan.nextKey]).toEqual([250, [], 10])
  })

  it('rewrites only the last part when a message is appended', () => {
    const first = bytesOf(1000)
    const appended = new Uint8Array(1040)
    appended.set(first.subarray(0, 990))
    appended.set(bytesOf(40, 9), 990)
    appended.set(first.subarray(990), 1030) // the closing bytes stay last
    const { plans } = commitAll([first, appended])
    expect(plans[1]!.removes).toEqual([plans[0]!.parts.at(-1)!.key])
    expect(written(plans[1]!)).toBe(140)
  })

  it('rewrites only the first part when the header changes length (a rename)', () => {
    const first = bytesOf(1000)
    const renamed = new Uint8Array(1005)
    renamed.set(first.subarray(0, 20))
    renamed.set([1, 2, 3, 4, 5, 6, 7, 8], 20)
    renamed.set(first.subarray(23), 28)
    const { plans } = commitAll([first, renamed])
    expect(plans[1]!.removes).toEqual([plans[0]!.parts[0]!.key])
    expect(written(plans[1]!)).toBe(105)
    expect(plans[1]!.parts.slice(-9)).toEqual(plans[0]!.parts.slice(1))
  })

  it('writes nothing when nothing changed', () => {
    const bytes = bytesOf(500)
    const { plans } = commitAll([bytes, bytes.slice()])
    expect([plans[1]!.writes, plans[1]!.removes, plans[1]!.parts]).toEqual([[], [], plans[0]!.parts])
  })

  it('writes it whole again once edits have split it into too many small parts', () => {
    const versions = [bytesOf(400)]
    // Each edit touches a different place, so each leaves a new small part behind.
    for (let i = 0; i < 30; i++) {
      const next = versions.at(-1)!.slice()
      next[(i * 37) % 400] = 255 - next[(i * 37) % 400]!
      versions.push(next)
    }
    const { plans } = commitAll(versions)
    expect(Math.max(...plans.map((p) => p.parts.length))).toBeLessThanOrEqual(2 * 4 + 4)
  })

  it('round-trips any run of edits: inserts, deletes, shrinking to nothing and growing again', () => {
    let state = 12345
    const random = (n: number) => ((state = (state * 1103515245 + 12345) % 2 ** 31) % n)
    const versions = [bytesOf(300)]
    for (let i = 0; i < 200; i++) {
      const prev = versions.at(-1)!
      const at = random(prev.length + 1)
      const cut = random(Math.min(60, prev.length - at) + 1)
      const insert = bytesOf(random(80), i)
      const next = new Uint8Array(prev.length - cut + insert.length)
      next.set(prev.subarray(0, at))
      next.set(insert, at)
      next.set(prev.subarray(at + cut), at + insert.length)
      versions.push(i === 100 ? new Uint8Array(0) : next)
    }
    commitAll(versions) // each step checks the stored parts join to exactly that version
  })

  it('starts over when the previous bytes do not match their parts', () => {
    const plan = planParts(bytesOf(150), { bytes: bytesOf(10), parts: [{ key: 3, length: 99 }] }, 4, PART)
    expect([written(plan), plan.removes]).toEqual([150, [3]])
  })
})

describe('joinParts', () => {
  it('answers null when a part is missing or not its recorded length', () => {
    const parts = [{ key: 1, length: 2 }, { key: 2, length: 3 }]
    expect(joinParts(parts, new Map([[1, new Uint8Array(2)]]))).toBeNull()
    expect(joinParts(parts, new Map([[1, new Uint8Array(2)], [2, new Uint8Array(4)]]))).toBeNull()
    expect(joinParts(parts, new Map([[1, Uint8Array.of(1, 2)], [2, Uint8Array.of(3, 4, 5)]]))).toEqual(Uint8Array.of(1, 2, 3, 4, 5))
  })
})

describe('commonPrefix and commonSuffix', () => {
  it('count shared bytes at either end, aligned or not', () => {
    const a = bytesOf(1003)
    const b = a.slice()
    b[517] = 0
    expect(commonPrefix(a, b)).toBe(517)
    expect(commonPrefix(a.subarray(1), b.subarray(1))).toBe(516)
    expect(commonSuffix(a, b, 1003)).toBe(1003 - 518)
    expect(commonSuffix(a, b.subarray(2), 1001)).toBe(0 + commonSuffix(a.subarray(2), b.subarray(2), 1001))
    expect(commonSuffix(a, a.slice(), 10)).toBe(10)
  })

  it('commonSuffix agrees with a byte-by-byte count for every alignment of both ends and views', () => {
    const naive = (a: Uint8Array, b: Uint8Array, limit: number) => {
      let n = 0
      while (n < limit && a[a.length - 1 - n] === b[b.length - 1 - n]) n++
      return n
    }
    const tail = bytesOf(301)
    for (let headA = 0; headA < 6; headA++) {
      for (let headB = 0; headB < 6; headB++) {
        for (const cut of [0, 1, 2, 3, 5, 150, 299]) {
          const a = new Uint8Array(headA + tail.length)
          a.fill(7, 0, headA)
          a.set(tail, headA)
          const b = new Uint8Array(headB + tail.length)
          b.fill(9, 0, headB)
          b.set(tail, headB)
          if (cut > 0) b[b.length - cut] = b[b.length - cut]! ^ 0xff // differ `cut` bytes from the end
          for (const [va, vb] of [[a, b], [a.subarray(1), b], [a, b.subarray(3)], [a.subarray(2, a.length), b.subarray(1, b.length)], [a.subarray(0, a.length - 1), b.subarray(0, b.length - 2)], [a.subarray(1, a.length - 3), b.subarray(2, b.length - 1)]] as const) {
            const limit = Math.min(va.length, vb.length)
            for (const l of [limit, limit >> 1, 3]) expect(commonSuffix(va, vb, l), `${headA} ${headB} ${cut} ${l}`).toBe(naive(va, vb, l))
          }
        }
      }
    }
  })
})
