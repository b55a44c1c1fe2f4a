// A scriptable stand-in for an OAuth issuer with device sign-in (RFC 8628), refresh with rotation
// (RFC 6749 §6) and revocation (RFC 7009), for unit and end-to-end tests. CORS is allowed except
// under /nocors/ (discovery at <url>/nocors/.well-known/openid-configuration), where no
// access-control-* header is sent, as from an issuer that refuses browser requests.
//
// Endpoints: GET /.well-known/openid-configuration, POST /device, POST /token, POST /revoke.
// Control (tests, through the functions returned or over HTTP):
//   POST /__script  { pending?, slowDown?, outcome?: 'approve' | 'deny' | 'expire' | 'error',
//                     interval?, expiresIn?, accessTtls?: number[], refreshOutcome?: 'ok' | 'reject',
//                     revokeStatus? } — how the next sign-in goes (merged into the defaults)
//   GET  /__log     every request: { method, path, grant?, origin, atMs }
//   GET  /__tokens  { access: string[], refresh: string[], revoked: string[] }: every token issued
//   POST /__reset   back to the defaults, logs and tokens cleared
// Tokens look like fxat_<hex> (access) and fxrt_<hex> (refresh): easy to scan a page for.
import { createServer } from 'node:http'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization',
}

const DEFAULTS = { pending: 0, slowDown: 0, outcome: 'approve', interval: 0.05, expiresIn: 600, accessTtls: [3600], refreshOutcome: 'ok', revokeStatus: 200 }

const hex = (n) => randomBytes(n).toString('hex')

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = []
    req.on('data', (part) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

/** Starts the issuer on 127.0.0.1 (port 0 picks a free one). */
export async function startMockIssuer(options = {}) {
  let script = { ...DEFAULTS }
  let log = []
  let tokens = { access: [], refresh: [], revoked: [] }
  /** device_code → { polls, slowDowns, userCode } */
  let devices = new Map()
  /** refresh tokens that may still be used (rotation invalidates the old one). */
  let liveRefresh = new Set()
  let issued = 0

  const issue = () => {
    const ttl = script.accessTtls[Math.min(issued, script.accessTtls.length - 1)]
    issued++
    const access = `fxat_${hex(16)}`
    const refresh = `fxrt_${hex(16)}`
    tokens.access.push(access)
    tokens.refresh.push(refresh)
    liveRefresh.add(refresh)
    return { access_token: access, token_type: 'Bearer', expires_in: ttl, refresh_token: refresh, scope: 'openid offline_access' }
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const noCors = url.pathname.startsWith('/nocors/')
    const path = noCors ? url.pathname.slice('/nocors'.length) : url.pathname
    const cors = noCors ? {} : CORS
    const send = (status, value) => {
      res.writeHead(status, { ...cors, 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(JSON.stringify(value))
    }
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors)
        res.end()
        return
      }
      if (path.startsWith('/__')) return control(req, res, path, send)
      const form = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : new URLSearchParams()
      log.push({ method: req.method, path, ...(form.get('grant_type') ? { grant: form.get('grant_type') } : {}), origin: req.headers.origin ?? null, atMs: Date.now() })
      const base = `http://127.0.0.1:${port}${noCors ? '/nocors' : ''}`
      if (req.method === 'GET' && path === '/.well-known/openid-configuration') {
        return send(200, { issuer: base, device_authorization_endpoint: `${base}/device`, token_endpoint: `${base}/token`, revocation_endpoint: `${base}/revoke` })
      }
      if (req.method === 'POST' && path === '/device') {
        if (!form.get('client_id')) return send(400, { error: 'invalid_client' })
        const deviceCode = `dc_${hex(8)}`
        const userCode = `${hex(2)}-${hex(2)}`.toUpperCase()
        devices.set(deviceCode, { polls: 0, slowDowns: 0 })
        return send(200, {
          device_code: deviceCode,
          user_code: userCode,
          verification_uri: `${base}/activate`,
          verification_uri_complete: `${base}/activate?user_code=${userCode}`,
          expires_in: script.expiresIn,
          interval: script.interval,
        })
      }
      if (req.method === 'POST' && path === '/token') return token(form, send)
      if (req.method === 'POST' && path === '/revoke') {
        tokens.revoked.push(form.get('token') ?? '')
        liveRefresh.delete(form.get('token') ?? '')
        return send(script.revokeStatus, script.revokeStatus === 200 ? {} : { error: 'server_error' })
      }
      send(404, { error: 'not_found' })
    } catch (error) {
      if (!res.headersSent) send(500, { error: 'server_error', error_description: String(error) })
    }
  })

  function token(form, send) {
    const grant = form.get('grant_type')
    if (grant === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? ''
      if (script.refreshOutcome === 'reject' || !liveRefresh.has(refresh)) return send(400, { error: 'invalid_grant', error_description: `refresh token ${refresh} is not valid` })
      liveRefresh.delete(refresh) // rotation: a refresh token works once
      return send(200, issue())
    }
    if (grant !== 'urn:ietf:params:oauth:grant-type:device_code') return send(400, { error: 'unsupported_grant_type' })
    const device = devices.get(form.get('device_code') ?? '')
    if (!device) return send(400, { error: 'invalid_grant' })
    if (device.slowDowns < script.slowDown) {
      device.slowDowns++
      return send(400, { error: 'slow_down' })
    }
    if (device.polls < script.pending) {
      device.polls++
      return send(400, { error: 'authorization_pending' })
    }
    if (script.outcome === 'deny') return send(400, { error: 'access_denied' })
    if (script.outcome === 'expire') return send(400, { error: 'expired_token' })
    if (script.outcome === 'error') return send(400, { error: 'invalid_client', error_description: 'unknown client' })
    devices.delete(form.get('device_code') ?? '')
    return send(200, issue())
  }

  async function control(req, res, path, send) {
    if (req.method === 'POST' && path === '/__script') {
      script = { ...script, ...JSON.parse((await readBody(req)) || '{}') }
      return send(200, script)
    }
    if (req.method === 'GET' && path === '/__log') return send(200, log)
    if (req.method === 'GET' && path === '/__tokens') return send(200, tokens)
    if (req.method === 'POST' && path === '/__reset') {
      script = { ...DEFAULTS }
      log = []
      tokens = { access: [], refresh: [], revoked: [] }
      devices = new Map()
      liveRefresh = new Set()
      issued = 0
      return send(200, { ok: true })
    }
    send(404, { error: 'no such control path' })
  }

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
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve(undefined)))
    },
  }
}

// `node mock-servers/mock-issuer-server.mjs [port]` runs it by hand.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const issuer = await startMockIssuer({ port: Number(process.argv[2] ?? 0) })
  console.log(`mock issuer on ${issuer.url}`)
  const stop = () => issuer.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
