/**
 * Bash worker side: the HTTP client isomorphic-git's clone, fetch and push talk through. It is
 * `fetch` (the worker's, or Node's in unit tests) plus what the workspace needs on top:
 * the person's CORS proxy (`<proxy>/<host>/<path>`, the @isomorphic-git/cors-proxy shape), the
 * command's abort signal (Ctrl+C or the 30 s deadline stops the transfer, not just the wait),
 * a cap on the bytes received, and errors that say what failed (refused connection vs a
 * connection cut mid-answer) instead of fetch's bare "Failed to fetch" / "terminated".
 */

import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git'

/** Thrown when the server or the network failed us; `message` is one line for the person. */
export class RemoteNetworkError extends Error {
  override name = 'RemoteNetworkError'
}

/** Thrown when a remote answers more bytes than the cap allows. */
export class RemoteTooBigError extends Error {
  override name = 'RemoteTooBigError'
}

export type RemoteHttpOptions = {
  /** The CORS proxy every request goes through, or null for direct requests. */
  proxy: string | null
  signal?: AbortSignal
  /** Bytes of response bodies allowed in total; past it, the transfer stops with RemoteTooBigError. */
  maxResponseBytes: number
  /** The message RemoteTooBigError carries, given the bytes received so far. */
  tooBig(received: number): string
}

/**
 * Extra headers (an Authorization) for requests to `url`, or undefined for none.
 *
 * This is the one place credentials enter fxterm's git. Today it answers undefined for every
 * URL: there is no credential store, and a URL's own `user:password@` is refused (remote-url.ts).
 * The GitHub token (`/key github`) is meant to plug in here, answering only for GitHub's hosts;
 * whatever it answers also passes through a configured proxy, which is why the proxy notice
 * (remote-config.ts) says credentials included.
 */
export function credentialsFor(url: string): Record<string, string> | undefined {
  void url
  return undefined
}

/** `url` as sent through `proxy` (isomorphic-git's convention: a `?` proxy takes the whole URL). */
export function proxied(proxy: string | null, url: string): string {
  if (proxy === null) return url
  return proxy.endsWith('?') ? `${proxy}${url}` : `${proxy.replace(/\/+$/, '')}/${url.replace(/^https?:\/\//, '')}`
}

/** The repository URL a smart-HTTP request URL belongs to (without /info/refs or the service). */
function repositoryOf(url: string): string {
  return url.replace(/\/info\/refs\?service=git-[a-z-]+$/, '').replace(/\/git-(upload|receive)-pack$/, '')
}

async function collect(body: GitHttpRequest['body']): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!body) return undefined
  const parts: Uint8Array[] = []
  for await (const part of body as AsyncIterable<Uint8Array>) parts.push(part)
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.byteLength
  }
  return out
}

export function remoteHttp(options: RemoteHttpOptions): HttpClient {
  let received = 0

  async function* bodyOf(response: Response, url: string): AsyncGenerator<Uint8Array> {
    if (!response.body) return
    const reader = response.body.getReader()
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>
        try {
          chunk = await reader.read()
        } catch (error) {
          if (options.signal?.aborted) throw error
          throw new RemoteNetworkError(`the connection to ${new URL(url).host} was cut before the answer was complete`)
        }
        if (chunk.done) return
        received += chunk.value.byteLength
        if (received > options.maxResponseBytes) throw new RemoteTooBigError(options.tooBig(received))
        yield chunk.value
      }
    } finally {
      reader.releaseLock()
      if (received > options.maxResponseBytes || options.signal?.aborted) void response.body.cancel().catch(() => {})
    }
  }

  async function request(req: GitHttpRequest): Promise<GitHttpResponse> {
    const headers: Record<string, string> = { ...req.headers, ...credentialsFor(req.url) }
    const target = proxied(options.proxy, req.url)
    const body = await collect(req.body)
    let response: Response
    try {
      response = await fetch(target, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      })
    } catch (error) {
      if (options.signal?.aborted) throw error
      const via = options.proxy === null ? '' : ` through the proxy ${options.proxy}`
      // A POST carries the pack (push) or the wants (fetch): its request reached the server
      // before, so a failure here is a connection lost mid-transfer, not one never made.
      if (req.method === 'POST') {
        throw new RemoteNetworkError(`the connection to ${new URL(req.url).host}${via} was cut while sending; the server applies a push whole or not at all`)
      }
      throw new RemoteNetworkError(
        `unable to access '${repositoryOf(req.url)}'${via}: could not connect (the server is down or unreachable, or it does not allow this page's origin (CORS); a CORS proxy can be set with git config --global http.corsProxy <url>)`,
      )
    }
    const responseHeaders: Record<string, string> = {}
    response.headers.forEach((value, key) => {
      responseHeaders[key] = value
    })
    return {
      url: req.url,
      method: req.method ?? 'GET',
      statusCode: response.status,
      statusMessage: response.statusText,
      headers: responseHeaders,
      body: bodyOf(response, req.url),
    }
  }

  return { request }
}
