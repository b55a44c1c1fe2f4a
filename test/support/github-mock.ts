/**
 * Tests only: GitHub's REST API and raw file host as a `fetch`, served from a REAL repository
 * in a temporary directory with the machine's native git — reads through `git cat-file`,
 * `git ls-tree`, `git rev-parse`, writes through `git hash-object -w`, `git mktree` and
 * `git update-ref` — so every id the fxterm side computes is checked against native git.
 * Like GitHub, commit dates come back in UTC and a message without its final newline; a signed
 * commit's verification carries the unsigned text and the signature. Every request is recorded
 * with the headers the caller's fetch attached.
 */

import { execFileSync } from 'node:child_process'
import type { GithubFetch } from '../../src/bash-worker/git/github/github-api'

export type GithubMockMode = 'ok' | 'unauthorized' | 'rate-limit' | 'forbidden' | 'not-found'
export type RecordedRequest = { method: string; url: string; headers: Record<string, string>; body: string | null }

export type GithubMock = {
  /** The server side: answers as GitHub would, recording the request. */
  server: GithubFetch
  /** The page's fetch: the token goes only to api.github.com and raw.githubusercontent.com. */
  pageFetch(token: string): GithubFetch
  requests: RecordedRequest[]
  /** Pull requests opened, as their JSON bodies. */
  pulls: unknown[]
  mode: GithubMockMode
  /** When set, tree listings say `truncated: true`. */
  truncate: boolean
  /** When set, POST /git/commits stores the message this returns (a GitHub that rewrites). */
  rewriteMessage: ((message: string) => string) | null
  git(args: string[], input?: string | Buffer): string
}

const TOKEN_HOSTS = new Set(['api.github.com', 'raw.githubusercontent.com'])

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}

function utc(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z')
}

function person(line: string): { name: string; email: string; date: string } {
  const m = /^(.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(line)!
  return { name: m[1]!, email: m[2]!, date: utc(Number(m[3])) }
}

/** `2023-11-14T23:13:20+01:00` or `...Z` as git's `seconds zone`. */
function gitDate(iso: string): string {
  const offset = /([+-])(\d\d):(\d\d)$/.exec(iso)
  return `${Math.floor(Date.parse(iso) / 1000)} ${offset ? `${offset[1]}${offset[2]}${offset[3]}` : '+0000'}`
}

export function createGithubMock(dir: string, owner: string, repo: string): GithubMock {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LANG: 'C' }
  const git = (args: string[], input?: string | Buffer): string =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', input: input ?? '', stdio: ['pipe', 'pipe', 'pipe'] })
  const gitBytes = (args: string[]): Buffer => execFileSync('git', args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const revParse = (ref: string): string | null => {
    try {
      return git(['rev-parse', '--verify', '-q', `${ref}^{commit}`]).trim()
    } catch {
      return null
    }
  }
  const prefix = `/repos/${owner}/${repo}`

  const commitJson = (sha: string) => {
    const text = git(['cat-file', 'commit', sha])
    const end = text.indexOf('\n\n')
    const headers = text.slice(0, end).split('\n')
    const field = (key: string) => headers.filter((h) => h.startsWith(`${key} `)).map((h) => h.slice(key.length + 1))
    const sigStart = headers.findIndex((h) => h.startsWith('gpgsig '))
    let payload: string | null = null
    let signature: string | null = null
    if (sigStart !== -1) {
      let sigEnd = sigStart + 1
      while (sigEnd < headers.length && headers[sigEnd]!.startsWith(' ')) sigEnd++
      const sigLines = headers.slice(sigStart, sigEnd).map((l, i) => (i === 0 ? l.slice('gpgsig '.length) : l.slice(1)))
      signature = `${sigLines.join('\n')}\n`
      payload = [...headers.slice(0, sigStart), ...headers.slice(sigEnd)].join('\n') + text.slice(end)
    }
    return {
      sha,
      tree: { sha: field('tree')[0] },
      parents: field('parent').map((p) => ({ sha: p })),
      author: person(field('author')[0]!),
      committer: person(field('committer')[0]!),
      message: text.slice(end + 2).replace(/\n$/, ''),
      verification: { verified: false, reason: signature ? 'unknown_key' : 'unsigned', signature, payload },
    }
  }

  const treeJson = (sha: string) => {
    const out = git(['ls-tree', '-r', '-t', '-l', '-z', sha])
    const tree = out
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const [meta, path] = line.split('\t') as [string, string]
        const [mode, type, oid, size] = meta.split(/\s+/) as [string, string, string, string]
        return { path, mode, type, sha: oid, ...(type === 'blob' ? { size: Number(size) } : {}) }
      })
    return { sha, tree, truncated: mock.truncate }
  }

  const api = (method: string, path: string, body: Record<string, unknown> | null): Response => {
    if (!path.startsWith(prefix)) return json({ message: 'Not Found' }, 404)
    const rest = path.slice(prefix.length)
    let m: RegExpExecArray | null
    if (method === 'GET' && rest === '') {
      const head = git(['symbolic-ref', '--short', 'HEAD']).trim()
      return json({ full_name: `${owner}/${repo}`, default_branch: head, private: false })
    }
    if (method === 'GET' && (m = /^\/git\/ref\/heads\/(.+)$/.exec(rest))) {
      const sha = revParse(`refs/heads/${decodeURIComponent(m[1]!)}`)
      return sha ? json({ ref: `refs/heads/${m[1]}`, object: { sha, type: 'commit' } }) : json({ message: 'Not Found' }, 404)
    }
    if (method === 'GET' && (m = /^\/branches\/(.+)$/.exec(rest))) {
      const sha = revParse(`refs/heads/${decodeURIComponent(m[1]!)}`)
      return sha ? json({ name: m[1], commit: { sha } }) : json({ message: 'Branch not found' }, 404)
    }
    if (method === 'GET' && (m = /^\/git\/commits\/([0-9a-f]{40})$/.exec(rest))) return json(commitJson(m[1]!))
    if (method === 'GET' && (m = /^\/git\/trees\/([0-9a-f]{40})\?recursive=1$/.exec(rest))) return json(treeJson(m[1]!))
    if (method === 'GET' && (m = /^\/git\/blobs\/([0-9a-f]{40})$/.exec(rest)))
      return json({ sha: m[1], encoding: 'base64', content: gitBytes(['cat-file', 'blob', m[1]!]).toString('base64') })
    if (method === 'POST' && rest === '/git/blobs') {
      const content = Buffer.from(String(body!.content), body!.encoding === 'base64' ? 'base64' : 'utf8')
      return json({ sha: git(['hash-object', '-w', '--stdin'], content).trim() }, 201)
    }
    if (method === 'POST' && rest === '/git/trees') {
      const entries = body!.tree as Array<{ path: string; mode: string; type: string; sha: string }>
      if (body!.base_tree || entries.some((e) => e.path.includes('/'))) return json({ message: 'mock: flat trees only' }, 422)
      const input = entries.map((e) => `${e.mode} ${e.type} ${e.sha}\t${e.path}\n`).join('')
      return json({ sha: git(['mktree'], input).trim() }, 201)
    }
    if (method === 'POST' && rest === '/git/commits') {
      const b = body as { message: string; tree: string; parents: string[]; author: { name: string; email: string; date: string }; committer: { name: string; email: string; date: string }; signature?: string }
      const sig = b.signature ? `gpgsig ${b.signature.replace(/\n$/, '').split('\n').join('\n ')}\n` : ''
      const text =
        `tree ${b.tree}\n${b.parents.map((p) => `parent ${p}\n`).join('')}` +
        `author ${b.author.name} <${b.author.email}> ${gitDate(b.author.date)}\n` +
        `committer ${b.committer.name} <${b.committer.email}> ${gitDate(b.committer.date)}\n${sig}\n${mock.rewriteMessage ? mock.rewriteMessage(b.message) : b.message}`
      return json({ sha: git(['hash-object', '-t', 'commit', '-w', '--stdin'], text).trim() }, 201)
    }
    if (method === 'PATCH' && (m = /^\/git\/refs\/heads\/(.+)$/.exec(rest))) {
      const ref = `refs/heads/${decodeURIComponent(m[1]!)}`
      const old = revParse(ref)
      const sha = String(body!.sha)
      if (!old) return json({ message: 'Reference does not exist' }, 422)
      if (!body!.force) {
        try {
          git(['merge-base', '--is-ancestor', old, sha])
        } catch {
          return json({ message: 'Update is not a fast forward' }, 422)
        }
      }
      git(['update-ref', ref, sha, old])
      return json({ ref, object: { sha, type: 'commit' } })
    }
    if (method === 'POST' && rest === '/git/refs') {
      const ref = String(body!.ref)
      if (revParse(ref)) return json({ message: 'Reference already exists' }, 422)
      git(['update-ref', ref, String(body!.sha)])
      return json({ ref, object: { sha: body!.sha, type: 'commit' } }, 201)
    }
    if (method === 'POST' && rest === '/pulls') {
      const b = body as { head: string; base: string }
      if (!revParse(`refs/heads/${b.head}`)) return json({ message: 'Validation Failed', errors: [{ message: `head ${b.head} does not exist` }] }, 422)
      mock.pulls.push(body)
      const number = mock.pulls.length
      return json({ number, html_url: `https://github.com/${owner}/${repo}/pull/${number}` }, 201)
    }
    return json({ message: `mock: no ${method} ${rest}` }, 404)
  }

  const raw = (path: string): Response => {
    const parts = path.split('/').slice(1).map(decodeURIComponent)
    if (parts[0] !== owner || parts[1] !== repo) return new Response('404: Not Found', { status: 404 })
    try {
      return new Response(new Uint8Array(gitBytes(['cat-file', 'blob', `${parts[2]}:${parts.slice(3).join('/')}`])))
    } catch {
      return new Response('404: Not Found', { status: 404 })
    }
  }

  const server: GithubFetch = async (url, init) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries())
    const body = typeof init.body === 'string' ? init.body : null
    const method = init.method ?? 'GET'
    mock.requests.push({ method, url, headers, body })
    const parsed = new URL(url)
    if (!TOKEN_HOSTS.has(parsed.hostname) || parsed.protocol !== 'https:') throw new TypeError('Failed to fetch')
    if (mock.mode === 'unauthorized') return json({ message: 'Bad credentials' }, 401)
    if (mock.mode === 'rate-limit') return json({ message: 'API rate limit exceeded' }, 403, { 'x-ratelimit-remaining': '0' })
    if (mock.mode === 'forbidden') return json({ message: 'Resource not accessible by integration' }, 403, { 'x-ratelimit-remaining': '59' })
    if (mock.mode === 'not-found') return json({ message: 'Not Found' }, 404)
    if (parsed.hostname === 'raw.githubusercontent.com') return raw(parsed.pathname)
    return api(method, parsed.pathname + parsed.search, body ? (JSON.parse(body) as Record<string, unknown>) : null)
  }

  const mock: GithubMock = {
    server,
    pageFetch: (token) => (url, init) => {
      const host = new URL(url).hostname
      const headers = new Headers(init.headers)
      if (TOKEN_HOSTS.has(host) && url.startsWith('https://')) headers.set('authorization', `Bearer ${token}`)
      return server(url, { ...init, headers })
    },
    requests: [],
    pulls: [],
    mode: 'ok',
    truncate: false,
    rewriteMessage: null,
    git,
  }
  return mock
}
