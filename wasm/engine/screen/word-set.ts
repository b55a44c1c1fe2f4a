// Keyword sets for the code highlighter, looked up by the identifier's bytes in the source. With
// a Set<string>, every identifier of every code line was first decoded into a new string.

import { ByteBuf, byteAt } from '../util/byte-buf'

const BUCKETS = 64

@inline function bucketOf(first: i32, last: i32, n: i32): i32 {
  return (first * 7 + last * 3 + n) & (BUCKETS - 1)
}

export class WordSet {
  private text: ByteBuf = new ByteBuf(256)
  private at: Array<i32> = [] // word k is text[at[k], at[k] + len[k])
  private len: Array<i32> = []
  private buckets: Array<Array<i32>> = []

  /** The words of `words`, separated by spaces. */
  constructor(words: string) {
    for (let b = 0; b < BUCKETS; b++) this.buckets.push(new Array<i32>())
    const parts = words.split(' ')
    for (let i = 0; i < parts.length; i++) if (parts[i].length > 0) this.add(parts[i])
  }

  private add(word: string): void {
    const start = this.text.length
    this.text.str(word)
    const n = this.text.length - start
    this.buckets[bucketOf(this.text.u8At(start), this.text.u8At(start + n - 1), n)].push(this.at.length)
    this.at.push(start)
    this.len.push(n)
  }

  /** Whether `src[s, s + n)` (n > 0) is one of the words. */
  has(src: Uint8Array, s: i32, n: i32): bool {
    const list = unchecked(this.buckets[bucketOf(byteAt(src, s), byteAt(src, s + n - 1), n)])
    for (let j = 0; j < list.length; j++) {
      const k = unchecked(list[j])
      if (unchecked(this.len[k]) != n) continue
      if (memory.compare(this.text.dataStart + <usize>unchecked(this.at[k]), src.dataStart + <usize>s, <usize>n) == 0) return true
    }
    return false
  }
}
