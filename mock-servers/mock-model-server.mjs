// A scriptable stand-in for an OpenAI-compatible model server. The page fetches from a Web
// Worker, which Playwright's request interception may not see, so the tests talk to a real
// HTTP server instead and read back what it received.
//
// Control endpoints (used by tests through e2e/support/mock-model.ts):
//   POST /__script   body: Response[] or { responses: Response[] }; appends to the queue
//   POST /__release  lets every held stream continue
//   GET  /__held     { held: number }: streams currently waiting for /__release
//   GET  /__requests the JSON bodies received by /v1/chat/completions, oldest first
//   GET  /__streams  how each answered stream went, oldest first: { sent, total, outcome }
//                    (outcome 'cut' for a cutAfter), and firstByteAtMs, when its body's first
//                    byte was handed to the socket (on the /__clock clock)
//   POST /__reset    clears queue, requests and streams (and hits), releases held streams
//   GET  /__hits     every request to a model path, oldest first: { method, path, host, origin, authorization, atMs },
//                    preflights and probes included (what a CORS-refusing server was asked)
//   GET  /__clock    { nowMs }: this process's clock (performance.timeOrigin + performance.now()),
//                    which `atMs` and a stream's `firstByteAtMs` use; a bench calibrates against it
// A Response is { chunks?: (object|string)[], text?: string, deltaChars?: number, holdAfter?: number,
// intervalMs?: number, firstDelayMs?: number, status?: number, body?: string, headers?: object,
// cutAfter?: number }:
// objects are sent as `data: {json}`, strings as `data: <string>` (for malformed-data cases);
// `text` is a whole reply the server cuts into `deltaChars`-character deltas itself (role, deltas,
// finish, usage), so a megabyte reply need not cross /__script as one object per delta;
// `holdAfter: N` keeps the stream open after the first N chunks until /__release;
// `intervalMs` waits that long before each chunk after the first (a slow model);
// `firstDelayMs` waits that long, headers sent, before the first chunk (a model's time to first token);
// a `status` other than 200 (or a `body`) answers with that status and body instead of SSE;
// `headers` adds response headers (e.g. { 'retry-after': '1' }) and lists them in
// access-control-expose-headers, as a server must for a page to read them (only a few headers
// are CORS-safelisted, and Retry-After is not);
// `cutAfter: N` sends the first N chunks (after any hold) and then destroys the socket: no
// finish_reason, no [DONE], the way a dropped connection looks to the client;
// `partial: "<text>"` is written verbatim at that point, and the body then ends (cleanly, so the
// client reads every byte) inside that line;
// `resetAfter: N` sends the first N chunks and then resets the connection (a TCP RST, not a close);
// `keepAliveEveryMs: N` sends only `: keep-alive` comments, one every N ms, until the client leaves.
// Every hit that carried a body records its size in bytes (`bytes`), so a spec can see how big a
// request was.
// Paths under /nocors/ (e.g. baseUrl `<url>/nocors/v1`) are served the same way but without any
// access-control-* header, preflights included: the browser's fetch then fails with the opaque
// TypeError a real origin-refusing server (Ollama without OLLAMA_ORIGINS) causes.
// Paths under /keyed/ (baseUrl `<url>/keyed/v1`) answer 401 to any model request that carries no
// key (neither Authorization nor x-api-key), the way a server that wants a key does.
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  // Anthropic's own headers too, as api.anthropic.com allows them for browser requests.
  'access-control-allow-headers': 'content-type, authorization, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
  'access-control-max-age': '600',
}

/** The path prefix served without CORS headers. */
const NO_CORS_PREFIX = '/nocors/'

/** The path prefix that wants a key. */
const KEYED_PREFIX = '/keyed/'

/** How long a cut waits after its last write reached the socket, so the client has read it. */
const CUT_GRACE_MS = 50

/** The clock of /__clock, `atMs` and `firstByteAtMs`: high resolution, on the epoch's scale. */
const clockMs = () => performance.timeOrigin + performance.now()

/** The CORS headers a path is answered with: none under /nocors/. */
const corsFor = (path) => (path.startsWith(NO_CORS_PREFIX) ? {} : CORS)

/** A script's extra headers, exposed to the page when the path sends CORS headers at all. */
function extraHeaders(script, cors) {
  const headers = script.headers ?? {}
  const names = Object.keys(headers)
  if (names.length === 0 || cors !== CORS) return headers
  return { 'access-control-expose-headers': names.join(', '), ...headers }
}

/** When the queue is empty the model still answers, so a stray request never hangs a test. */
const FALLBACK = {
  chunks: [
    { choices: [{ index: 0, delta: { role: 'assistant', content: 'mock: no scripted response' }, finish_reason: null }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ],
}

/** Chunks stay in one socket write up to this size: a fast stream of tiny events is not a syscall each. */
const BATCH_BYTES = 64 * 1024

/** The end of every SSE stream the mock sends. */
const DONE_EVENT = 'data: [DONE]\n\n'

/**
 * A pre-encoded body goes out in writes of this size. Large writes keep this process (which
 * shares the machine's cores with the browser under test) from costing the client throughput.
 */
const WIRE_SLICE_BYTES = 1024 * 1024

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves when `res` can take more bytes, or closed. */
function drained(res) {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve(undefined)
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/** A `text` response as the chunks a server would send: `deltaChars` code points per delta. */
function textChunks(text, deltaChars = 4) {
  const size = Math.max(1, Math.floor(deltaChars))
  const points = Array.from(text)
  const chunks = [{ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }]
  for (let at = 0; at < points.length; at += size) {
    chunks.push({ choices: [{ index: 0, delta: { content: points.slice(at, at + size).join('') }, finish_reason: null }] })
  }
  chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
  chunks.push({ choices: [], usage: { prompt_tokens: 12, completion_tokens: Math.ceil(points.length / 4), total_tokens: 12 + Math.ceil(points.length / 4) } })
  return chunks
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = []
    req.on('data', (part) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

/** A model request's JSON body; `{ unparsable }` with the text when it is not JSON, so a spec sees it. */
async function readRequestJson(req, hit) {
  const text = await readBody(req)
  if (hit) hit.bytes = Buffer.byteLength(text)
  try {
    return JSON.parse(text)
  } catch {
    return { unparsable: text }
  }
}

function sendJson(res, status, value, cors = CORS) {
  res.writeHead(status, { ...cors, 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}

/**
 * Starts the server on 127.0.0.1 only (never reachable from outside the machine).
 * @param {{ port?: number }} [options] port 0 (default) picks a free one
 */
export async function startMockModelServer(options = {}) {
  /** @type {object[]} */ let queue = []
  /** @type {unknown[]} */ let requests = []
  /** @type {{ sent: number, total: number, outcome: 'open' | 'done' | 'aborted' | 'cut' | 'reset', firstByteAtMs?: number }[]} */ let streams = []
  /** @type {{ method: string, path: string, origin: string | null, atMs: number }[]} */ let hits = []
  /** @type {Set<() => void>} */ const held = new Set()
  let nextId = 1

  const releaseAll = () => {
    for (const release of [...held]) release()
  }

  /**
   * Serializes a response's SSE events when it is scripted, not when it is streamed: a stream
   * then goes out as fast as the socket takes it (a megabyte reply is ~250,000 events).
   */
  function prepare(script) {
    const id = `chatcmpl-mock-${nextId++}`
    const created = Math.floor(Date.now() / 1000)
    const chunks = script.text !== undefined ? textChunks(script.text, script.deltaChars) : (script.chunks ?? [])
    const events = chunks.map((chunk) => {
      const data = typeof chunk === 'string' ? chunk : JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'mock-model', ...chunk })
      return `data: ${data}\n\n`
    })
    // A stream with no timing of its own (no hold, pause, delay or cut) is encoded here once,
    // before any request is timed: a megabyte reply (~45 MB of SSE) then costs this process a
    // few large writes per request, so a bench measures the client rather than the mock.
    const plain = script.holdAfter === undefined && script.cutAfter === undefined && script.resetAfter === undefined && !script.keepAliveEveryMs && !script.intervalMs && !script.firstDelayMs
    const wire = plain ? Buffer.from(events.join('') + DONE_EVENT) : undefined
    return { ...script, events, wire }
  }

  /** Writes a pre-encoded body in large slices, respecting backpressure; false if the client left. */
  async function writeWire(res, wire, isClosed) {
    for (let at = 0; at < wire.length && !isClosed(); at += WIRE_SLICE_BYTES) {
      if (!res.write(wire.subarray(at, at + WIRE_SLICE_BYTES)) && !isClosed()) await drained(res)
    }
    return !isClosed()
  }

  async function streamCompletion(res, script, cors = CORS) {
    if ((script.status ?? 200) !== 200 || script.body !== undefined) {
      res.writeHead(script.status ?? 200, { ...cors, 'content-type': 'application/json', ...extraHeaders(script, cors) })
      res.end(script.body ?? '')
      return
    }
    res.writeHead(200, {
      ...cors,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...extraHeaders(script, cors),
    })
    // Flush headers now: the client must see the response start before any hold.
    res.flushHeaders()
    let closed = false
    /** @type {(() => void) | null} */ let releaseThis = null
    res.on('close', () => {
      closed = true
      // A client that gave up must not leave a hold behind for the next /__held poll.
      releaseThis?.()
    })
    const hold = () => new Promise((resolve) => {
      releaseThis = () => {
        held.delete(releaseThis)
        releaseThis = null
        resolve(undefined)
      }
      held.add(releaseThis)
    })
    const prepared = script.events ? script : prepare(script)
    const events = prepared.events
    const log = { sent: 0, total: events.length, outcome: 'open' }
    streams.push(log)
    res.on('close', () => {
      if (log.outcome === 'open') log.outcome = 'aborted'
    })
    if (script.keepAliveEveryMs) {
      // Bytes, but never an event: the stream a stalled upstream behind a proxy looks like.
      log.firstByteAtMs = clockMs()
      while (!closed) {
        res.write(': keep-alive\n\n')
        log.sent++
        await delay(script.keepAliveEveryMs)
      }
      return
    }
    if (prepared.wire !== undefined) {
      log.firstByteAtMs = clockMs()
      if (await writeWire(res, prepared.wire, () => closed)) {
        log.sent = events.length
        log.outcome = 'done'
        res.end()
      }
      return
    }
    let batch = ''
    let batched = 0
    const flush = async () => {
      if (batch === '' || closed) return
      log.firstByteAtMs ??= clockMs()
      const ok = res.write(batch)
      log.sent += batched
      batch = ''
      batched = 0
      // Respect backpressure, or a megabyte stream would sit in this process's memory.
      if (!ok && !closed) await drained(res)
    }
    for (let i = 0; i <= events.length; i++) {
      if (script.holdAfter === i && !closed) {
        await flush()
        await hold()
      }
      if (script.cutAfter === i && !closed) {
        if (script.partial !== undefined) {
          // Ended cleanly, so every byte reaches the client: the body stops inside a line.
          batch += script.partial
          await flush()
          log.outcome = 'cut'
          res.end()
          return
        }
        await flush()
        // Let the bytes reach the client first: a body that errors drops what it had not read.
        while (res.writableLength > 0 && !closed) await delay(5)
        await delay(CUT_GRACE_MS)
        log.outcome = 'cut'
        res.destroy()
        return
      }
      if (script.resetAfter === i && !closed) {
        await flush()
        while (res.writableLength > 0 && !closed) await delay(5)
        await delay(CUT_GRACE_MS)
        log.outcome = 'reset'
        res.socket?.resetAndDestroy()
        return
      }
      if (closed || i === events.length) break
      if (script.firstDelayMs && i === 0) {
        await delay(script.firstDelayMs)
        if (closed) break
      }
      if (script.intervalMs && i > 0) {
        await flush()
        await delay(script.intervalMs)
        if (closed) break
      }
      batch += events[i]
      batched++
      if (batch.length >= BATCH_BYTES) await flush()
    }
    await flush()
    if (!closed) {
      log.outcome = 'done'
      res.end(DONE_EVENT)
    }
  }

  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
      const cors = corsFor(path)
      if (!path.startsWith('/__')) {
        const anthropic = req.headers['x-api-key'] === undefined ? {} : { apiKey: req.headers['x-api-key'], anthropicVersion: req.headers['anthropic-version'] ?? null, browserAccess: req.headers['anthropic-dangerous-direct-browser-access'] ?? null }
        hits.push({ method: req.method ?? '', path, host: req.headers.host ?? null, origin: req.headers.origin ?? null, authorization: req.headers.authorization ?? null, ...anthropic, atMs: clockMs() })
      }
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors)
        res.end()
        return
      }
      if (path.startsWith(KEYED_PREFIX) && !req.headers.authorization && req.headers['x-api-key'] === undefined) {
        sendJson(res, 401, { error: { message: 'a key is required', type: 'invalid_request_error' } }, cors)
        return
      }
      // Any prefix is accepted (/v1/..., /v1/v1/..., /...): a baseUrl-joining quirk in the page
      // should show up as a request the spec inspects, not as a confusing 404.
      if (req.method === 'GET' && path.endsWith('/models')) {
        sendJson(res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'fxterm-e2e' }] }, cors)
        return
      }
      if (req.method === 'POST' && path.endsWith('/chat/completions')) {
        requests.push(await readRequestJson(req, hits.at(-1)))
        await streamCompletion(res, queue.shift() ?? FALLBACK, cors)
        return
      }
      if (req.method === 'POST' && path.endsWith('/messages')) {
        // Anthropic's Messages API: the scripted response's `text` as one streamed text block.
        const body = await readRequestJson(req, hits.at(-1))
        requests.push(body)
        const reply = queue.shift()?.text ?? 'mock: no scripted response'
        const events = [
          ['message_start', { type: 'message_start', message: { id: 'msg_mock', type: 'message', role: 'assistant', content: [], model: body.model, usage: { input_tokens: 3, output_tokens: 1 } } }],
          ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
          ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: reply } }],
          ['content_block_stop', { type: 'content_block_stop', index: 0 }],
          ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 5 } }],
          ['message_stop', { type: 'message_stop' }],
        ]
        res.writeHead(200, { ...cors, 'content-type': 'text/event-stream' })
        res.end(events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join(''))
        return
      }
      if (req.method === 'POST' && path === '/__script') {
        const parsed = JSON.parse(await readBody(req))
        const responses = Array.isArray(parsed) ? parsed : parsed.responses
        if (!Array.isArray(responses)) throw new Error('POST /__script wants an array of responses')
        queue.push(...responses.map(prepare))
        sendJson(res, 200, { queued: queue.length })
        return
      }
      if (req.method === 'POST' && path === '/__release') {
        const released = held.size
        releaseAll()
        sendJson(res, 200, { released })
        return
      }
      if (req.method === 'GET' && path === '/__held') {
        sendJson(res, 200, { held: held.size })
        return
      }
      if (req.method === 'GET' && path === '/__requests') {
        sendJson(res, 200, requests)
        return
      }
      if (req.method === 'GET' && path === '/__hits') {
        sendJson(res, 200, hits)
        return
      }
      if (req.method === 'GET' && path === '/__clock') {
        sendJson(res, 200, { nowMs: clockMs() })
        return
      }
      if (req.method === 'GET' && path === '/__streams') {
        sendJson(res, 200, streams)
        return
      }
      if (req.method === 'POST' && path === '/__reset') {
        queue = []
        requests = []
        streams = []
        hits = []
        releaseAll()
        sendJson(res, 200, { ok: true })
        return
      }
      sendJson(res, 404, { error: { message: `mock: no route ${req.method} ${path}` } })
    } catch (error) {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } })
      else res.end()
    }
  })

  // Idle keep-alive sockets stay open: with Node's 5 s default, a client that reused a socket as
  // the server closed it got ECONNRESET (seen when a test before it took more than 5 s).
  server.keepAliveTimeout = 0
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined))
  })
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close() {
      releaseAll()
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve(undefined)))
    },
  }
}

// `node mock-servers/mock-model-server.mjs [port]` runs it by hand, for poking at the page manually.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await startMockModelServer({ port: Number(process.argv[2] ?? 0) })
  console.log(`mock model server on ${server.url}/v1`)
  const stop = () => server.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
