// A smart-HTTP git server for tests: the system's `git http-backend` (CGI) behind a small Node
// server that adds CORS, so a page or a worker on another origin can clone, fetch and push.
// Repositories are the bare ones under `root` (GIT_PROJECT_ROOT), all exported; pushes are
// allowed (REMOTE_USER is set and http.receivepack is on for every repository).
//
// Faults (tests set them with setFault; each stays until changed):
//   { status: 401 | 403 | 404 }       every git request answers that status (a 401 with
//                                     WWW-Authenticate: Basic, as a server wanting a login does)
//   { cutUploadPackAfter: N }         a fetch's pack response is cut (socket destroyed) after N
//                                     body bytes: a network failure mid-clone
//   { cutReceivePackAfter: N }        a push's request is cut after N body bytes reach git: the
//                                     backend sees a truncated pack, and the client a dropped socket
// Every request is recorded in `requests`: { method, path, authorization }.
//
// Run alone: node mock-servers/git-http-server.mjs <root> [port]
import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

const BACKEND = '/usr/lib/git-core/git-http-backend'

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept, git-protocol, user-agent',
  'access-control-expose-headers': 'content-type, www-authenticate',
}

const STATUS_TEXT = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }

/** Splits CGI output into its header block and the rest. */
function splitCgiHead(buffer) {
  const crlf = buffer.indexOf('\r\n\r\n')
  const lf = buffer.indexOf('\n\n')
  if (crlf === -1 && lf === -1) return null
  const useCrlf = crlf !== -1 && (lf === -1 || crlf < lf)
  const end = useCrlf ? crlf : lf
  const headers = {}
  let status = 200
  for (const line of buffer.subarray(0, end).toString('latin1').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon === -1) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (name === 'status') status = Number.parseInt(value, 10)
    else headers[name] = value
  }
  return { status, headers, rest: buffer.subarray(end + (useCrlf ? 4 : 2)) }
}

/** Starts the server on 127.0.0.1 (port 0 picks a free one) over the bare repositories in `root`. */
export async function startGitHttpServer(options) {
  let fault = {}
  const requests = []
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorization: req.headers.authorization ?? null })
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...CORS, 'access-control-max-age': '600' })
      return res.end()
    }
    if (fault.status) {
      const extra = fault.status === 401 ? { 'www-authenticate': 'Basic realm="git"' } : {}
      res.writeHead(fault.status, { ...CORS, ...extra, 'content-type': 'text/plain' })
      return res.end(`${STATUS_TEXT[fault.status] ?? 'Error'}\n`)
    }
    const isReceive = url.pathname.endsWith('/git-receive-pack')
    const isUpload = url.pathname.endsWith('/git-upload-pack')
    const child = spawn(BACKEND, [], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        GIT_PROJECT_ROOT: options.root,
        GIT_HTTP_EXPORT_ALL: '1',
        REMOTE_USER: 'tester',
        REMOTE_ADDR: '127.0.0.1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-encoding'] ? { HTTP_CONTENT_ENCODING: req.headers['content-encoding'] } : {}),
        ...(req.headers['git-protocol'] ? { HTTP_GIT_PROTOCOL: req.headers['git-protocol'] } : {}),
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'http.receivepack',
        GIT_CONFIG_VALUE_0: 'true',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    })
    child.stdin.on('error', () => {})
    const cutPush = isReceive ? fault.cutReceivePackAfter : undefined
    if (cutPush !== undefined) {
      let seen = 0
      req.on('data', (chunk) => {
        if (seen >= cutPush) return
        const part = chunk.subarray(0, cutPush - seen)
        seen += part.length
        child.stdin.write(part)
        if (seen >= cutPush) {
          child.stdin.end()
          req.socket.destroy()
        }
      })
      req.on('end', () => child.stdin.end())
    } else req.pipe(child.stdin)

    const cutFetch = isUpload ? fault.cutUploadPackAfter : undefined
    let head = Buffer.alloc(0)
    let started = false
    let sent = 0
    const send = (chunk) => {
      if (cutFetch !== undefined && sent + chunk.length > cutFetch) {
        res.write(chunk.subarray(0, Math.max(0, cutFetch - sent)))
        sent = cutFetch
        res.socket?.destroy()
        child.kill()
        return
      }
      sent += chunk.length
      res.write(chunk)
    }
    child.stdout.on('data', (chunk) => {
      if (res.destroyed) return
      if (started) return send(chunk)
      head = Buffer.concat([head, chunk])
      const parsed = splitCgiHead(head)
      if (!parsed) return
      started = true
      res.writeHead(parsed.status, { ...CORS, ...parsed.headers })
      if (parsed.rest.length) send(parsed.rest)
    })
    child.on('close', () => {
      if (res.destroyed) return
      if (!started) {
        res.writeHead(500, CORS)
        return res.end('git http-backend answered nothing\n')
      }
      res.end()
    })
  })
  await new Promise((resolve) => server.listen(options.port ?? 0, '127.0.0.1', () => resolve(undefined)))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    setFault(next) {
      fault = { ...next }
    },
    close() {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve(undefined)))
    },
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2]
  if (!root) {
    console.error('usage: node mock-servers/git-http-server.mjs <root> [port]')
    process.exit(2)
  }
  const git = await startGitHttpServer({ root, port: Number(process.argv[3] ?? 0) })
  console.log(`git smart-HTTP server on ${git.url} (repositories in ${root})`)
  const stop = () => git.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
