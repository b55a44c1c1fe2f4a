// The agent API's input frame (IN_AGENT, wasm/ABI.md): a prompt, a steer or a cancel for the loop.

import { ByteBuf } from '../util/byte-buf'
import { AGENT_CANCEL, AGENT_PROMPT, AGENT_STEER } from '../abi/frames'
import { AgentLoop } from './loop'

/**
 * The agent API's input frame. A prompt starts a turn (the host sends one only when none runs;
 * one that arrives during a turn steers it); a steer joins the running turn at its next model
 * request, or starts a turn when none runs; cancel interrupts the turn.
 */
export function agentInput(loop: AgentLoop, sub: i32, bytes: Uint8Array, start: i32, end: i32, nowMs: f64): void {
  if (sub == AGENT_CANCEL) {
    loop.interrupt()
    return
  }
  if (sub != AGENT_PROMPT && sub != AGENT_STEER) return
  const text = new ByteBuf(end - start + 1)
  text.slice(bytes, start, end)
  if (loop.busy) loop.steer(text)
  else loop.submit(text, nowMs)
}
