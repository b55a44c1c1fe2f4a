// The record of the session this engine writes: its id and title, and when it is committed (the
// host stores the bytes with revisions; session.ts writes and restores them).

export class Session {
  /** The host has a sessionStore: commits go somewhere. */
  enabled: bool = false
  id: string = ''
  title: string = ''
  renamed: bool = false
  createdMs: f64 = 0
  /** Opened while another tab holds it: nothing is written until the person continues (a fork). */
  readOnly: bool = false
  /** Set at each commit point; the engine commits once at the end of the feed. */
  due: bool = false
  private rng: u32 = 0x9e3779b9

  seed(seed: u32): void {
    this.rng = seed != 0 ? seed : 0x9e3779b9
  }

  /** A fresh id: the time it starts and a random part from the boot seed (xorshift). */
  newId(nowMs: f64): string {
    let x = this.rng
    x ^= x << 13
    x ^= x >> 17
    x ^= x << 5
    this.rng = x
    return 's' + (<u64>nowMs).toString(36) + '-' + x.toString(36)
  }

  /** Starts over (/new): the next commit creates a new record. */
  reset(): void {
    this.id = ''
    this.title = ''
    this.renamed = false
    this.readOnly = false
    this.due = false
  }
}
