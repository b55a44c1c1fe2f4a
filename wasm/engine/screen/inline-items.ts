// The items of the line markdown-inline.ts is rendering (text runs, code spans, delimiter runs,
// link ends, URLs), nine i32 fields each, side by side in one Int32Array. In nine Arrays an item
// was nine pushes, each with its own capacity check and call; the live preview renders its line
// again on every delta, so this was a good part of a streamed reply's time.

// item kinds (F_KIND)
export const K_TEXT = 0
export const K_CODE = 1
export const K_DELIM = 2
export const K_LINK_OPEN = 3
export const K_LINK_CLOSE = 4
export const K_URL = 5

export const F_KIND = 0
export const F_S = 1 // text range, or the delimiter's position
export const F_E = 2 // text range end, or the delimiter's character
export const F_U1 = 3 // link: URL range; delimiter: run length
export const F_U2 = 4 // link: URL end; delimiter: flags (1 can open, 2 can close)
export const F_SAFE = 5 // 1 when the URL may become an OSC 8 link
export const F_REM = 6 // delimiter characters left unpaired
export const F_OPENS = 7 // style units this delimiter opens
export const F_CLOSES = 8 // and closes
const FIELDS = 9

export class InlineItems {
  private data: Int32Array = new Int32Array(FIELDS * 64)
  count: i32 = 0

  @inline get(k: i32, field: i32): i32 {
    return load<i32>(this.data.dataStart + ((<usize>(k * FIELDS + field)) << 2))
  }

  @inline set(k: i32, field: i32, value: i32): void {
    store<i32>(this.data.dataStart + ((<usize>(k * FIELDS + field)) << 2), value)
  }

  add(kind: i32, s: i32, e: i32, u1: i32, u2: i32, safe: bool): void {
    const k = this.count
    if ((k + 1) * FIELDS > this.data.length) {
      const next = new Int32Array(this.data.length << 1)
      memory.copy(next.dataStart, this.data.dataStart, <usize>(k * FIELDS) << 2)
      this.data = next
    }
    const at = this.data.dataStart + ((<usize>(k * FIELDS)) << 2)
    store<i32>(at, kind)
    store<i32>(at, s, 4)
    store<i32>(at, e, 8)
    store<i32>(at, u1, 12)
    store<i32>(at, u2, 16)
    store<i32>(at, safe ? 1 : 0, 20)
    store<i32>(at, 0, 24)
    store<i32>(at, 0, 28)
    store<i32>(at, 0, 32)
    this.count = k + 1
  }
}
