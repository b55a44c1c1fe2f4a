// The engine's exports: the whole ABI is three functions over two buffers (see wasm/ABI.md).
//   inputBuffer(len) → pointer where the host writes one input frame of `len` bytes
//   feed(len)        → processes that frame; returns the byte length of the output frames
//   outputPtr()      → where those output frames start (valid until the next feed)

import { changeAnswer } from './commands/change-commands'
import { Engine, authState, sessionList } from './engine'
import { parseJson } from './util/json'
import * as F from './abi/frames'
import { ModelFailure } from './agent/retry'
import { handleKeys, submitHeldDraft } from './input/key-dispatch'
import { agentInput } from './agent/agent-input'
import { holdSnapshot } from './session/session'

let engine = new Engine()
let input = new Uint8Array(4096)

export function inputBuffer(len: u32): usize {
  if (<i32>len > input.length) {
    // Twice the old size, or just the frame when that is bigger: a 4 MB session arriving at a
    // 4 KB buffer took 8 MB, every byte of it zero-filled.
    input = new Uint8Array(max(input.length << 1, <i32>len))
  }
  return input.dataStart
}

/**
 * The input buffer, handed over for good (a fresh one takes its place): a session's bytes, which
 * its decoded messages keep views into instead of a copy of their own (see snapshot-body.ts).
 */
function takeInput(): Uint8Array {
  const taken = input
  input = new Uint8Array(4096)
  return taken
}

export function outputPtr(): usize {
  return engine.fx.buf.dataStart
}

export function feed(len: u32): u32 {
  const fx = engine.fx
  fx.reset()
  if (<i32>len < F.INPUT_HEADER) return 0
  const base = input.dataStart
  const kind = <i32>load<u8>(base)
  const sub = <i32>load<u8>(base + 1)
  const id = load<u32>(base + 4)
  engine.nowMs = load<f64>(base + 8)
  engine.loop.nowMs = engine.nowMs
  const payloadLen = <i32>load<u32>(base + 16)
  const start = F.INPUT_HEADER
  const end = min(start + payloadLen, <i32>len)

  if (kind == F.IN_TRAP) abort('trap requested by the host')
  if (kind == F.IN_SESSION_DECODE) {
    // The host had the bytes before it could boot the engine: decoding is most of a resume.
    holdSnapshot(takeInput(), start, end)
    return 0
  }
  if (kind == F.IN_BOOT) engine.boot(input, start, end)
  else if (!engine.booted) return 0
  else if (kind == F.IN_KEYS) handleKeys(engine, input, start, end)
  else if (kind == F.IN_RESIZE && end - start >= 8) {
    engine.resize(<i32>load<u32>(base + <usize>start), <i32>load<u32>(base + <usize>start + 4))
  } else if (kind == F.IN_MODEL) modelEvent(id, sub, start, end)
  else if (kind == F.IN_EXEC_RESULT) execResult(id, start, end)
  else if (kind == F.IN_TIMER) engine.timer(id)
  else if (kind == F.IN_NOTICE) engine.hostNotice(input, start, end)
  else if (kind == F.IN_CATALOG) engine.catalog(input, start, end)
  else if (kind == F.IN_SESSION) engine.sessionBytes(takeInput(), start, end, (sub & 1) != 0, (sub & 2) != 0)
  else if (kind == F.IN_SESSION_LIST) {
    sessionList(engine, input, start, end)
    engine.markDirty()
  }
  else if (kind == F.IN_SESSION_EVENT) engine.sessionEvent(input, start, end)
  else if (kind == F.IN_CONFIG) engine.configChanged(input, start, end)
  else if (kind == F.IN_RESTORE) {
    if (engine.restore(input, start, end)) submitHeldDraft(engine)
  }
  else if (kind == F.IN_AUTH) authState(engine, input, start, end)
  else if (kind == F.IN_PROVIDERS) engine.providersAdded(input, start, end)
  else if (kind == F.IN_AGENT) agentInput(engine.loop, sub, input, start, end, engine.nowMs)
  else if (kind == F.IN_TOOL_RESULT) engine.loop.hostToolResult(id, input, start, end)
  else if (kind == F.IN_WORKSPACE) {
    if (!engine.loop.fileOpAnswer(id, input, start, end)) changeAnswer(engine.settings, engine.ui.view, engine.ui.screen.rows, id, input, start, end)
    engine.markDirty()
  }
  engine.settle()
  return <u32>fx.buf.length
}

function modelEvent(id: u32, sub: i32, start: i32, end: i32): void {
  const loop = engine.loop
  engine.markDirty()
  if (sub == F.MODEL_TEXT_DELTA) loop.text(id, input, start, end)
  else if (sub == F.MODEL_REFUSAL_DELTA) loop.refusal(id, input, start, end)
  else if (sub == F.MODEL_REASONING_DELTA) loop.reasoning(id, input, start, end)
  else if (sub == F.MODEL_TOOL_CALL_START) loop.toolStart(id, input, start, end)
  else if (sub == F.MODEL_TOOL_CALL_DELTA && end - start >= 4) {
    loop.toolDelta(id, <i32>load<u32>(input.dataStart + <usize>start), input, start + 4, end)
  } else if (sub == F.MODEL_USAGE) {
    const v = parseJson(input, start, end)
    if (v != null) loop.usage(id, v.getNumber('inputTokens', 0), v.getNumber('outputTokens', 0))
  } else if (sub == F.MODEL_FINISH) {
    loop.finish(id, String.UTF8.decodeUnsafe(input.dataStart + <usize>start, end - start))
  } else if (sub == F.MODEL_ERROR) {
    const v = parseJson(input, start, end)
    const failure = new ModelFailure()
    failure.message = 'The model request failed.'
    if (v != null) {
      failure.message = v.getString('message', failure.message)
      failure.code = v.getString('code', '')
      failure.retryable = v.getBool('retryable', false)
      failure.retryAfterMs = v.getNumber('retryAfterMs', 0)
      failure.status = <i32>v.getNumber('status', 0)
    }
    loop.fail(id, failure)
  }
}

function execResult(id: u32, start: i32, end: i32): void {
  if (end - start < 8) return
  const base = input.dataStart
  const exitCode = load<i32>(base + <usize>start)
  const outLen = <i32>load<u32>(base + <usize>start + 4)
  const outStart = start + 8
  const errLenAt = outStart + outLen
  if (errLenAt + 4 > end) return
  const errLen = <i32>load<u32>(base + <usize>errLenAt)
  const errStart = errLenAt + 4
  if (errStart + errLen > end) return
  const stdout = input.slice(outStart, outStart + outLen)
  const stderr = input.slice(errStart, errStart + errLen)
  // Optional trailing field: the shell's directory after the command.
  let cwd = ''
  const cwdLenAt = errStart + errLen
  if (cwdLenAt + 4 <= end) {
    const cwdLen = <i32>load<u32>(base + <usize>cwdLenAt)
    if (cwdLenAt + 4 + cwdLen <= end && isPlainPath(cwdLenAt + 4, cwdLenAt + 4 + cwdLen)) {
      cwd = String.UTF8.decodeUnsafe(base + <usize>cwdLenAt + 4, cwdLen)
    }
  }
  engine.loop.execResult(id, exitCode, stdout, stderr, cwd)
  engine.markDirty()
}

/** A directory name is shown in the status line: refuse one carrying control characters. */
function isPlainPath(start: i32, end: i32): bool {
  if (end <= start || input[start] != 0x2f) return false
  for (let i = start; i < end; i++) {
    const c = input[i]
    if (c < 0x20 || c == 0x7f) return false
    if (c == 0xc2 && i + 1 < end && input[i + 1] < 0xa0) return false // C1 controls
  }
  return true
}
