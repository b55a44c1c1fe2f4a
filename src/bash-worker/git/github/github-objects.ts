/**
 * Bash worker side: brings one GitHub commit's objects into a local repository — its tree
 * listing, the blobs the repository lacks (from the raw host, which does not count against
 * the API's rate limit, or the API's base64 blobs when the raw bytes do not hash right), every
 * tree rebuilt from the listing and the commit rebuilt from its JSON. Each object is checked
 * against GitHub's id as it is written, so what lands locally is exactly GitHub's history.
 */

import git from 'isomorphic-git'
import type { GitFsPromises } from '../git-fs'
import { GithubError, type GithubApi } from './github-api'
import { objectId, rebuildCommit, type ApiCommit } from './github-commit-text'

/** Above this many files a clone or pull is refused. */
export const GITHUB_MAX_FILES = 20_000
/** Above this many bytes of files a clone or pull is refused. */
export const GITHUB_MAX_BYTES = 200 * 1024 * 1024

/** How many downloads run at once: enough to hide latency, few enough to stay polite. */
const PARALLEL = 6

/** One entry of GET /git/trees/SHA?recursive=1. */
export type ApiTreeEntry = { path: string; mode: string; type: 'blob' | 'tree' | 'commit'; sha: string; size?: number }
/** GET /git/trees/SHA?recursive=1. */
export type ApiTree = { sha: string; tree: ApiTreeEntry[]; truncated: boolean }

/** The local object store as this path uses it. */
export type ObjectStore = {
  write(type: 'blob' | 'tree' | 'commit', content: Uint8Array): Promise<string>
  has(oid: string): Promise<boolean>
}

/** The repository at `gitdir` as an ObjectStore (loose objects written through isomorphic-git). */
export function localObjects(fs: { promises: GitFsPromises }, gitdir: string): ObjectStore {
  return {
    write: (type, object) => git.writeObject({ fs, gitdir, type, object, format: 'content' }),
    async has(oid) {
      try {
        await git.readObject({ fs, gitdir, oid, format: 'deflated' })
        return true
      } catch {
        return false
      }
    },
  }
}

const encoder = new TextEncoder()

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return a.length - b.length
}

/** A raw tree object: entries in git's order, where a tree sorts as if its name ended in '/'. */
export function treeBytes(entries: Array<{ name: string; mode: string; sha: string; isTree: boolean }>): Uint8Array {
  const keyed = entries.map((e) => ({ e, key: encoder.encode(e.isTree ? `${e.name}/` : e.name) }))
  keyed.sort((x, y) => compareBytes(x.key, y.key))
  const parts = keyed.flatMap(({ e }) => [encoder.encode(`${parseInt(e.mode, 8).toString(8)} ${e.name}\0`), hexBytes(e.sha)])
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** Runs `work` over `items`, PARALLEL at a time; the first failure stops the rest. */
async function eachParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) await work(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker))
}

function mismatch(what: string, sha: string): GithubError {
  return new GithubError('GITHUB_REFUSED', `GitHub's ${what} ${sha.slice(0, 7)} could not be rebuilt with the same id; nothing was changed`)
}

/** One blob's bytes: the raw host's when they hash to `sha`, else the API's base64. */
async function downloadBlob(api: GithubApi, commit: string, entry: ApiTreeEntry): Promise<Uint8Array> {
  const raw = await api.raw(commit, entry.path).catch(() => null)
  if (raw && objectId('blob', raw) === entry.sha) return raw
  const blob = await api.get<{ content: string; encoding: string }>(`/git/blobs/${entry.sha}`)
  if (blob.encoding !== 'base64') return encoder.encode(blob.content)
  const text = atob(blob.content.replace(/\n/g, ''))
  return Uint8Array.from(text, (c) => c.charCodeAt(0))
}

/** What fetchCommit brought: the commit's JSON, its file count and bytes, and how many blobs were downloaded. */
export type FetchedCommit = { commit: ApiCommit; files: number; bytes: number; downloaded: number }

/**
 * Writes commit `sha` and everything its tree needs into `store` (parents are not fetched).
 * Refuses a truncated listing, a submodule or a tree above the caps before downloading.
 */
export async function fetchCommit(api: GithubApi, store: ObjectStore, sha: string, onProgress?: (line: string) => void): Promise<FetchedCommit> {
  const commit = await api.get<ApiCommit>(`/git/commits/${sha}`)
  const listing = await api.get<ApiTree>(`/git/trees/${commit.tree.sha}?recursive=1`)
  if (listing.truncated)
    throw new GithubError('GITHUB_REFUSED', `GitHub cut its listing of ${sha.slice(0, 7)}'s files short (truncated): the repository is too large for fxterm's GitHub clone`)
  const submodule = listing.tree.find((e) => e.type === 'commit')
  if (submodule) throw new GithubError('GITHUB_REFUSED', `submodules are not supported ('${submodule.path}' is one); nothing was changed`)
  const blobs = listing.tree.filter((e) => e.type === 'blob')
  const bytes = blobs.reduce((n, e) => n + (e.size ?? 0), 0)
  if (blobs.length > GITHUB_MAX_FILES)
    throw new GithubError('GITHUB_REFUSED', `refusing: ${blobs.length.toLocaleString('en')} files is above fxterm's limit of ${GITHUB_MAX_FILES.toLocaleString('en')}`)
  if (bytes > GITHUB_MAX_BYTES) throw new GithubError('GITHUB_REFUSED', `refusing: ${mb(bytes)} of files is above fxterm's limit of ${mb(GITHUB_MAX_BYTES)}`)

  const wanted = new Map<string, ApiTreeEntry>()
  for (const entry of blobs) if (!wanted.has(entry.sha) && !(await store.has(entry.sha))) wanted.set(entry.sha, entry)
  let done = 0
  await eachParallel([...wanted.values()], async (entry) => {
    const oid = await store.write('blob', await downloadBlob(api, sha, entry))
    if (oid !== entry.sha) throw mismatch('file', entry.sha)
    onProgress?.(`Receiving objects: ${++done}/${wanted.size}`)
  })

  // Trees bottom-up: the deepest directories first, so each parent's entries exist.
  const children = new Map<string, ApiTreeEntry[]>([['', []]])
  for (const entry of listing.tree) {
    const parent = entry.path.includes('/') ? entry.path.slice(0, entry.path.lastIndexOf('/')) : ''
    children.set(parent, [...(children.get(parent) ?? []), entry])
  }
  const dirs = [...children.keys()].sort((a, b) => b.split('/').length - a.split('/').length || b.length - a.length)
  const shaOf = new Map(listing.tree.filter((e) => e.type === 'tree').map((e) => [e.path, e.sha]))
  for (const dir of dirs) {
    const entries = (children.get(dir) ?? []).map((e) => ({ name: e.path.slice(dir ? dir.length + 1 : 0), mode: e.mode, sha: e.sha, isTree: e.type === 'tree' }))
    const expected = dir === '' ? commit.tree.sha : shaOf.get(dir)
    if ((await store.write('tree', treeBytes(entries))) !== expected) throw mismatch('tree', expected ?? dir)
  }

  const text = await rebuildCommit(commit)
  if (!text || (await store.write('commit', text)) !== sha) throw mismatch('commit', sha)
  return { commit, files: blobs.length, bytes, downloaded: wanted.size }
}
