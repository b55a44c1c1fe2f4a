// The prompts typed here, oldest first (the host's promptHistoryStore keeps them across visits),
// and where Up/Down are in them.

import { ByteBuf } from '../util/byte-buf'

export class PromptHistory {
  items: Array<ByteBuf> = []
  /** The entry in the composer while Up/Down walk the history (-1: the draft being typed). */
  index: i32 = -1
  /** The draft that was in the composer when the walk began. */
  draft: ByteBuf | null = null

  /** /history clear. */
  clear(): void {
    this.items = []
    this.index = -1
  }
}
