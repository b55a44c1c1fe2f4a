// Frames across the wasm boundary. See wasm/ABI.md for the authoritative description.
//
// Input frame (host → engine), written by the host into the buffer from `inputBuffer(len)`:
//   u8 kind · u8 sub · u16 reserved · u32 id · f64 nowMs · u32 payloadLen · payload
// Output frames (engine → host), concatenated in the buffer at `outputPtr()`:
//   u8 kind · u8 sub · u16 reserved · u32 id · u32 payloadLen · payload
// All integers little-endian. Payloads are raw UTF-8 or JSON as listed per kind.

import { ByteBuf } from '../util/byte-buf'
import { writeJsonString } from '../util/json'

export const INPUT_HEADER = 20
export const OUTPUT_HEADER = 12

// Input kinds (13-14 and 21-22: the agent API; 15 and 23: sign-in; 16: late restore. Keep them apart.)
export const IN_BOOT = 1 // JSON boot options
export const IN_KEYS = 2 // raw key bytes from the terminal
export const IN_RESIZE = 3 // u32 cols · u32 rows
export const IN_MODEL = 4 // id = request id, sub = MODEL_* event kind
export const IN_EXEC_RESULT = 5 // id = exec id; i32 exitCode · u32 n · stdout · u32 n · stderr [· u32 n · cwd]
export const IN_TIMER = 6 // id = timer id
export const IN_NOTICE = 7 // JSON {text, level: info | warning | error | plain}
export const IN_CATALOG = 8 // JSON {provider, models: [ModelInfo | id], error?}
export const IN_SESSION = 9 // snapshot bytes; sub bit 1 = held by another tab (open read-only), bit 2 = no bytes: restore the one IN_SESSION_DECODE decoded
export const IN_SESSION_LIST = 10 // JSON [{id, title, updatedAtMs, turns, firstPrompt}]
export const IN_SESSION_EVENT = 11 // JSON {type: conflict | commit_error | commit_ok | missing, message?}
export const IN_CONFIG = 12 // JSON {id, value}: a setting another tab changed
export const IN_AUTH = 15 // JSON {state, ...}: a sign-in or key state to show (commands/auth-commands.ts)
export const IN_AGENT = 13 // the agent API: sub 1 prompt, 2 steer (raw UTF-8 text), 3 cancel (empty)
export const IN_TOOL_RESULT = 14 // id = tool call id; raw UTF-8 result text for the model
export const IN_RESTORE = 16 // JSON {config, history, instructions, notices}: stored state that arrived after boot
export const IN_SESSION_DECODE = 17 // snapshot bytes, even before boot: decoded now and held for an IN_SESSION (sub bit 2)
export const IN_PROVIDERS = 20 // JSON {providers: [{name, label, model, baseUrl, key}]}: providers added after boot (/provider add, or restored)
export const IN_WORKSPACE = 19 // id = workspace op id; JSON answer to an OUT_WORKSPACE (file tool, /diff, /undo)
export const IN_TRAP = 0x7f // traps on purpose: lets tests exercise the host's recovery path

// Model event sub-kinds (IN_MODEL), named after the host's ModelEvent types
export const MODEL_TEXT_DELTA = 1 // raw UTF-8 delta
export const MODEL_REASONING_DELTA = 2 // raw UTF-8 delta
export const MODEL_TOOL_CALL_START = 3 // JSON {index, id, name}
export const MODEL_TOOL_CALL_DELTA = 4 // u32 index · raw UTF-8 argument fragment
export const MODEL_TOOL_CALL_END = 5 // u32 index
export const MODEL_USAGE = 6 // JSON {inputTokens, outputTokens}
export const MODEL_FINISH = 7 // raw reason: stop | tool_calls | length | content_filter
export const MODEL_ERROR = 8 // JSON {code, message}
export const MODEL_REFUSAL_DELTA = 9 // raw UTF-8 delta of a refusal (the reply, drawn as one)

// Output kinds
export const OUT_WRITE = 1 // raw terminal bytes
export const OUT_MODEL_REQUEST = 2 // id; JSON ModelRequest
export const OUT_MODEL_CANCEL = 3 // id
export const OUT_EXEC = 4 // id; JSON {command, cwd, timeoutMs, outputLimitBytes}
export const OUT_EXEC_CANCEL = 5 // id
export const OUT_TIMER_SET = 6 // id; f64 delayMs
export const OUT_TIMER_CANCEL = 7 // id
export const OUT_EVENT = 8 // JSON event for onEvent
export const OUT_EXIT = 9 // u32 exit code
export const OUT_ACTION = 10 // JSON {action: files | download | export, ...}
export const OUT_CLIPBOARD = 11 // raw UTF-8 text to copy
export const OUT_ECHO_HINT = 12 // u32 columns the host may echo typed ASCII into before the engine answers
export const OUT_CONFIG_SET = 13 // JSON {id, value}: a setting accepted, for the configStore
export const OUT_CATALOG_REQUEST = 14 // JSON {provider}: fetch this provider's model catalog
export const OUT_HISTORY_APPEND = 15 // raw UTF-8: a submitted prompt or command, for the history store
export const OUT_HISTORY_CLEAR = 16 // empty: /history clear
export const OUT_SESSION_COMMIT = 17 // snapshot bytes (session/snapshot.ts); the meta header names the id
export const OUT_SESSION_LIST = 18 // empty: list saved sessions (answered by IN_SESSION_LIST)
export const OUT_SESSION_OPEN = 19 // JSON {id}: load this session (answered by IN_SESSION)
export const OUT_SESSION_REMOVE = 20 // JSON {id}: delete this saved session
export const OUT_AUTH = 23 // JSON {action: login | login_reopen | login_cancel | logout | key | key_clear}
export const OUT_TOOL_CALL = 21 // id; JSON {callId, name, arguments, rerun}: run a host tool
export const OUT_TOOL_CANCEL = 22 // id: the turn was cancelled while that host tool ran
export const OUT_WORKSPACE = 24 // id (0: no answer); JSON {op: turn | file | diff | undo, ...}: a workspace op

// Agent API sub-kinds (IN_AGENT)
export const AGENT_PROMPT = 1 // raw UTF-8 text: starts a turn (steers one that runs)
export const AGENT_STEER = 2 // raw UTF-8 text: joins the running turn at its next request
export const AGENT_CANCEL = 3 // empty: interrupts the turn

/** The effects produced by one `feed` call. */
export class Effects {
  buf: ByteBuf = new ByteBuf(4096)

  reset(): void {
    this.buf.reset()
  }

  /** Starts a frame; returns the offset of its length field, to be closed by `end`. */
  begin(kind: i32, id: u32, sub: i32 = 0): i32 {
    const b = this.buf
    b.byte(kind)
    b.byte(sub)
    b.byte(0)
    b.byte(0)
    b.writeU32(id)
    const at = b.length
    b.writeU32(0)
    return at
  }

  end(at: i32): void {
    this.buf.setU32(at, <u32>(this.buf.length - at - 4))
  }

  emit(kind: i32, id: u32, payload: ByteBuf | null): void {
    const at = this.begin(kind, id)
    if (payload != null) this.buf.append(payload)
    this.end(at)
  }

  write(bytes: ByteBuf): void {
    if (bytes.length > 0) this.emit(OUT_WRITE, 0, bytes)
  }

  timer(id: u32, delayMs: f64): void {
    const at = this.begin(OUT_TIMER_SET, id)
    this.buf.writeF64(delayMs)
    this.end(at)
  }

  cancelTimer(id: u32): void {
    this.emit(OUT_TIMER_CANCEL, id, null)
  }

  /** A setting the engine accepted, for the host's configStore. */
  config(id: string, value: string): void {
    const at = this.begin(OUT_CONFIG_SET, 0)
    this.buf.str('{"id":')
    writeJsonString(this.buf, id)
    this.buf.str(',"value":')
    writeJsonString(this.buf, value)
    this.buf.byte(0x7d)
    this.end(at)
  }

  /** Asks the host for something only it can do: `{action}` (list files, download the workspace). */
  action(name: string): void {
    const at = this.begin(OUT_ACTION, 0)
    this.buf.str('{"action":"' + name + '"}')
    this.end(at)
  }

  exit(code: u32): void {
    const at = this.begin(OUT_EXIT, 0)
    this.buf.writeU32(code)
    this.end(at)
  }
}
