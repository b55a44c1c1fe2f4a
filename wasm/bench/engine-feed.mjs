// An engine.wasm instance driven the way the engine worker drives it, for the benches in this
// folder (Node cannot import src/shared/messages/engine-frames.ts without a TypeScript step): input frames
// are encoded here (20-byte header: kind, sub, id, now, length; see wasm/ABI.md), output frames
// are returned as the engine wrote them.

const IN_BOOT = 1
const IN_KEYS = 2
const IN_MODEL = 4
const SUB_TEXT = 1
const SUB_FINISH = 7
const OUT_MODEL_REQUEST = 2
const HEADER = 20

const encoder = new TextEncoder()

/**
 * A fresh instance of `module`, booted at `cols`×`rows` with the demo provider. `onFeed(ns)` is
 * told the time spent inside each feed() and `onOutput(bytes)` sees every output (valid only
 * during the call).
 */
export async function startEngine(module, { cols = 80, rows = 24, onFeed = () => {}, onOutput = () => {} } = {}) {
  const instance = await WebAssembly.instantiate(module, { env: { abort: () => { throw new Error('engine abort') } } })
  const x = instance.exports
  let now = 1_000_000
  const feed = (kind, payload, id = 0, sub = 0) => {
    const len = HEADER + payload.length
    const ptr = x.inputBuffer(len)
    const frame = new Uint8Array(x.memory.buffer, ptr, len)
    const view = new DataView(frame.buffer, frame.byteOffset, HEADER)
    view.setUint8(0, kind)
    view.setUint8(1, sub)
    view.setUint16(2, 0, true)
    view.setUint32(4, id, true)
    view.setFloat64(8, now, true)
    view.setUint32(16, payload.length, true)
    frame.set(payload, HEADER)
    const t = process.hrtime.bigint()
    const outLen = x.feed(len)
    onFeed(process.hrtime.bigint() - t)
    const out = new Uint8Array(x.memory.buffer, x.outputPtr(), outLen)
    onOutput(out)
    return out
  }
  const boot = { cols, rows, seed: 1, provider: 'demo', model: 'demo', tools: true, cwd: '/workspace', notices: [], args: [] }
  feed(IN_BOOT, encoder.encode(JSON.stringify(boot)))
  return {
    /** Types `prompt` and Enter; returns the id of the model request it makes. */
    prompt: (prompt) => findRequest(feed(IN_KEYS, encoder.encode(`${prompt}\r`))),
    keys: (text) => feed(IN_KEYS, encoder.encode(text)),
    /** One text delta (bytes) of request `id`, one millisecond after the last input. */
    text(id, delta) {
      now += 1
      return feed(IN_MODEL, delta, id, SUB_TEXT)
    },
    finish: (id) => feed(IN_MODEL, encoder.encode('stop'), id, SUB_FINISH),
  }
}

/** The id of the model request among the output frames (12-byte header: kind, id at 4, length at 8). */
function findRequest(out) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  for (let at = 0; at + 12 <= out.length; at += 12 + view.getUint32(at + 8, true)) {
    if (view.getUint8(at) === OUT_MODEL_REQUEST) return view.getUint32(at + 4, true)
  }
  throw new Error('no model request after the prompt')
}
