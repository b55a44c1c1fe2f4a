// A scriptable stand-in for an OpenAI-compatible model server. The page fetches from a Web
// Worker, which Playwright's request interception may not see, so the tests talk to a real
// HTTP server instead and read back what it received.
//
// Control endpoints (used by tests through e2e/support/mock-model.ts):
//   POST /__script   body: Response[] or { responses: Response[] }; appends to the queue
//   POST /__release  lets every held stream continue
//   GET  /__held     { held: number }: streams currently waiting for /__release
//   GET  /__requests the JSON bodies received by /v1/chat/completions, oldest first
//   POST /__reset    clears queue and requests, releases held streams
// A Response is { chunks?: (object|string)[], holdAfter?: number, status?: number, body?: string }:
// objects are sent as `data: {json}`, strings as `data: <string>` (for malformed-data cases);
// `holdAfter: N` keeps the stream open after the first N chunks until /__release;
// a `status` other than 200 (or a `body`) answers with that status and body instead of SSE.
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization',
  'access-control-max-age': '600',
}

/** When the queue is empty the model still answers, so a stray request never hangs a test. */
const FALLBACK = {
  chunks: [
    { choices: [{ index: 0, delta: { role: 'assistant', content: 'mock: no scripted response' }, finish_reason: null }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
  ],
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = []
    req.on('data', (part) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function sendJson(res, status, value) {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}

/**
 * Starts the server on 127.0.0.1 only (never reachable from outside the machine).
 * @param {{ port?: number }} [options] port 0 (default) picks a free one
 */
export async function startMockModelServer(options = {}) {
  /** @type {object[]} */ let queue = []
  /** @type {unknown[]} */ let requests = []
  /** @type {Set<() => void>} */ const held = new Set()
  let nextId = 1

  const releaseAll = () => {
    for (const release of [...held]) release()
  }

  async function streamCompletion(res, script) {
    if ((script.status ?? 200) !== 200 || script.body !== undefined) {
      res.writeHead(script.status ?? 200, { ...CORS, 'content-type': 'application/json' })
      res.end(script.body ?? '')
      return
    }
    res.writeHead(200, {
      ...CORS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
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
    const id = `chatcmpl-mock-${nextId++}`
    const created = Math.floor(Date.now() / 1000)
    const chunks = script.chunks ?? []
    for (let i = 0; i <= chunks.length; i++) {
      if (script.holdAfter === i && !closed) await hold()
      if (closed || i === chunks.length) break
      const chunk = chunks[i]
      const data = typeof chunk === 'string'
        ? chunk
        : JSON.stringify({ id, object: 'chat.completion.chunk', created, model: 'mock-model', ...chunk })
      res.write(`data: ${data}\n\n`)
    }
    if (!closed) res.end('data: [DONE]\n\n')
  }

  const server = createServer(async (req, res) => {
    try {
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
      if (req.method === 'OPTIONS') {
        res.writeHead(204, CORS)
        res.end()
        return
      }
      // Any prefix is accepted (/v1/..., /v1/v1/..., /...): a baseUrl-joining quirk in the page
      // should show up as a request the spec inspects, not as a confusing 404.
      if (req.method === 'GET' && path.endsWith('/models')) {
        sendJson(res, 200, { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'fxterm-e2e' }] })
        return
      }
      if (req.method === 'POST' && path.endsWith('/chat/completions')) {
        const text = await readBody(req)
        let body
        try {
          body = JSON.parse(text)
        } catch {
          body = { unparsable: text }
        }
        requests.push(body)
        await streamCompletion(res, queue.shift() ?? FALLBACK)
        return
      }
      if (req.method === 'POST' && path === '/__script') {
        const parsed = JSON.parse(await readBody(req))
        const responses = Array.isArray(parsed) ? parsed : parsed.responses
        if (!Array.isArray(responses)) throw new Error('POST /__script wants an array of responses')
        queue.push(...responses)
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
      if (req.method === 'POST' && path === '/__reset') {
        queue = []
        requests = []
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

// `node e2e/mock-model-server.mjs [port]` runs it by hand, for poking at the page manually.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const server = await startMockModelServer({ port: Number(process.argv[2] ?? 0) })
  console.log(`mock model server on ${server.url}/v1`)
  const stop = () => server.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
