// A stand-in for @isomorphic-git/cors-proxy, for tests: `<proxy>/<host>/<path>` is forwarded to
// `<protocol>://<host>/<path>` (http by default, since the test servers are plain http; the
// real proxy always uses https) with CORS headers added, and everything that passed through is
// recorded, headers included, so a test can show what a proxy gets to see.
//
// Run alone: node mock-servers/cors-proxy.mjs [port]
import { request as httpRequest, createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, git-protocol, user-agent',
  'access-control-expose-headers': 'content-type, www-authenticate',
}

/** Starts the proxy on 127.0.0.1 (port 0 picks a free one). */
export async function startCorsProxy(options = {}) {
  const passed = []
  const server = createServer((req, res) => {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS)
      return res.end()
    }
    const rest = (req.url ?? '/').replace(/^\/+/, '')
    const target = `${options.protocol ?? 'http'}://${rest}`
    const headers = { ...req.headers }
    delete headers.host
    delete headers.origin
    passed.push({ method: req.method ?? 'GET', url: target, headers: { ...headers } })
    const upstream = httpRequest(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...CORS })
      answer.pipe(res)
    })
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, CORS)
      res.end(`proxy: ${error.message}\n`)
    })
    req.pipe(upstream)
  })
  await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined)))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    passed,
    close() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve(undefined)))
    },
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const proxy = await startCorsProxy({ port: Number(process.argv[2] ?? 0) })
  console.log(`CORS proxy on ${proxy.url}`)
  const stop = () => proxy.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
