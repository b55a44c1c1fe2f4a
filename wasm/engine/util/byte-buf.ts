// A growable UTF-8 byte buffer. All output is built here: repeated string concatenation is
// quadratic in AssemblyScript (measured 300× slower than JS for an SSE-sized workload).

export class ByteBuf {
  data: Uint8Array
  length: i32 = 0

  constructor(capacity: i32 = 256) {
    this.data = new Uint8Array(capacity)
  }

  /**
   * `src[start, end)` as a full ByteBuf that shares `src`'s memory: for bytes that are only read
   * (appended elsewhere). Appending to it copies first (it has no room left); never reset it.
   */
  static view(src: Uint8Array, start: i32, end: i32): ByteBuf {
    const b = new ByteBuf(0)
    b.data = src.subarray(start, end)
    b.length = end - start
    return b
  }

  @inline get dataStart(): usize {
    return this.data.dataStart
  }

  reset(): void {
    this.length = 0
  }

  reserve(extra: i32): void {
    const need = this.length + extra
    if (need <= this.data.length) return
    // At least 16: an empty buffer (capacity 0, or an empty view) would otherwise never grow.
    let cap = max(this.data.length << 1, 16)
    // A jump past double (a 4 MB session snapshot into the effects buffer) takes what it needs and
    // an eighth more, not the next power of two: every byte of a new buffer is zero-filled, and a
    // 4 MB session took 8 MB.
    if (cap < need) cap = need + (need >>> 3)
    const next = new Uint8Array(cap)
    memory.copy(next.dataStart, this.data.dataStart, this.length)
    this.data = next
  }

  // Called for most bytes of output: the common case (room left) is inlined, without a call.
  @inline byte(b: i32): void {
    if (this.length >= this.data.length) this.reserve(1)
    store<u8>(this.data.dataStart + <usize>this.length, <u8>b)
    this.length++
  }

  bytes(src: Uint8Array): void {
    this.rawCopy(src.dataStart, src.length)
  }

  slice(src: Uint8Array, start: i32, end: i32): void {
    this.rawCopy(src.dataStart + <usize>start, end - start)
  }

  append(other: ByteBuf): void {
    this.rawCopy(other.dataStart, other.length)
  }

  rawCopy(ptr: usize, len: i32): void {
    if (len <= 0) return
    // the check inline, the growth a call: most copies fit
    if (this.length + len > this.data.length) this.reserve(len)
    memory.copy(this.data.dataStart + <usize>this.length, ptr, len)
    this.length += len
  }

  /** Appends an AssemblyScript string as UTF-8. */
  str(s: string): void {
    // Most strings written are short ASCII (escape sequences, margins, separators): copied unit
    // by unit in one pass, where the general encoder measures the length first, then encodes.
    const n = s.length
    if (n <= 16) {
      if (this.length + n > this.data.length) this.reserve(n)
      const from = changetype<usize>(s)
      const to = this.data.dataStart + <usize>this.length
      let i = 0
      while (i < n) {
        const c = load<u16>(from + (<usize>i << 1))
        if (c >= 0x80) break
        store<u8>(to + <usize>i, <u8>c)
        i++
      }
      if (i == n) {
        this.length += n
        return
      }
    }
    const len = String.UTF8.byteLength(s)
    this.reserve(len)
    String.UTF8.encodeUnsafe(changetype<usize>(s), s.length, this.data.dataStart + <usize>this.length)
    this.length += len
  }

  /** Appends one Unicode code point as UTF-8. */
  codepoint(cp: i32): void {
    if (cp < 0x80) {
      this.byte(cp)
    } else if (cp < 0x800) {
      this.byte(0xc0 | (cp >> 6))
      this.byte(0x80 | (cp & 0x3f))
    } else if (cp < 0x10000) {
      this.byte(0xe0 | (cp >> 12))
      this.byte(0x80 | ((cp >> 6) & 0x3f))
      this.byte(0x80 | (cp & 0x3f))
    } else {
      this.byte(0xf0 | (cp >> 18))
      this.byte(0x80 | ((cp >> 12) & 0x3f))
      this.byte(0x80 | ((cp >> 6) & 0x3f))
      this.byte(0x80 | (cp & 0x3f))
    }
  }

  // Digits written in place: through toString() every escape sequence's parameters allocated a
  // string (a megabyte reply writes a few hundred thousand of them).
  int(n: i64): void {
    if (n < 0) {
      if (n == i64.MIN_VALUE) {
        this.str(n.toString())
        return
      }
      this.byte(0x2d)
      n = -n
    }
    let digits = 1
    for (let rest = n; rest >= 10; rest /= 10) digits++
    this.reserve(digits)
    let at = this.data.dataStart + <usize>(this.length + digits)
    do {
      at--
      store<u8>(at, <u8>(0x30 + <i32>(n % 10)))
      n /= 10
    } while (n > 0)
    this.length += digits
  }

  // The string is encoded once and its bytes copied, the copy doubling each time: a table
  // border or a divider repeats '─' up to a thousand times.
  repeat(s: string, count: i32): void {
    if (count <= 0) return
    const start = this.length
    this.str(s)
    const size = this.length - start
    const total = size * count
    this.reserve(total - size)
    const base = this.data.dataStart + <usize>start
    let done = size
    while (done < total) {
      const n = min(done, total - done)
      memory.copy(base + <usize>done, base, <usize>n)
      done += n
    }
    this.length = start + total
  }

  @inline u8At(i: i32): u8 {
    return load<u8>(this.data.dataStart + <usize>i)
  }

  /** A copy of the contents. */
  toBytes(): Uint8Array {
    const out = new Uint8Array(this.length)
    memory.copy(out.dataStart, this.data.dataStart, this.length)
    return out
  }

  toString(): string {
    return String.UTF8.decodeUnsafe(this.data.dataStart, this.length)
  }

  writeU32(v: u32): void {
    this.reserve(4)
    store<u32>(this.data.dataStart + <usize>this.length, v)
    this.length += 4
  }

  writeF64(v: f64): void {
    this.reserve(8)
    store<f64>(this.data.dataStart + <usize>this.length, v)
    this.length += 8
  }

  setU32(at: i32, v: u32): void {
    store<u32>(this.data.dataStart + <usize>at, v)
  }
}

/**
 * `data[i]` without a bounds check, always inlined: the scanners read every byte of a reply
 * through this, and `unchecked(data[i])` was left as a call (with a stack check) by the optimizer.
 */
@inline export function byteAt(data: Uint8Array, i: i32): i32 {
  return <i32>load<u8>(data.dataStart + <usize>i)
}

/** Decodes the code point starting at `i`; returns it and writes the byte length to `lenOut`. */
export function decodeAt(data: Uint8Array, i: i32, end: i32, lenOut: StaticArray<i32>): i32 {
  const b0 = byteAt(data, i)
  if (b0 < 0x80) {
    lenOut[0] = 1
    return b0
  }
  let need = 0
  let cp = 0
  if ((b0 & 0xe0) == 0xc0) {
    need = 1
    cp = b0 & 0x1f
  } else if ((b0 & 0xf0) == 0xe0) {
    need = 2
    cp = b0 & 0x0f
  } else if ((b0 & 0xf8) == 0xf0) {
    need = 3
    cp = b0 & 0x07
  } else {
    lenOut[0] = 1
    return 0xfffd
  }
  if (i + need >= end) {
    lenOut[0] = end - i
    return 0xfffd
  }
  for (let k = 1; k <= need; k++) {
    const b = byteAt(data, i + k)
    if ((b & 0xc0) != 0x80) {
      lenOut[0] = k
      return 0xfffd
    }
    cp = (cp << 6) | (b & 0x3f)
  }
  lenOut[0] = need + 1
  return cp
}

/** UTF-8 bytes → code points. */
export function toCodepoints(data: Uint8Array, start: i32, end: i32): Array<i32> {
  const out = new Array<i32>()
  const len = new StaticArray<i32>(1)
  let i = start
  while (i < end) {
    out.push(decodeAt(data, i, end, len))
    i += len[0]
  }
  return out
}

export function stringBytes(s: string): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode(s))
}

/** `s` as a ByteBuf of its own (to append to, or to keep). */
export function stringBuf(s: string): ByteBuf {
  const b = new ByteBuf(s.length + 4)
  b.str(s)
  return b
}
