/**
 * Loads seed files from a URL: a JSON manifest (`{ "files": { "path": "content" } }`) or a zip.
 * Runs on the main thread, so the files land in the snapshot the worker is started from (and
 * restarted from, after a watchdog kill). fflate is imported only when a zip arrives.
 */

import type { SnapshotEntry } from './snapshot-store'
import { normalizeUploadPath } from './upload-plan'
import { resolveWorkspacePath } from '../../shared/workspace/workspace-paths'

/** How long the download may take before the workspace starts without it. */
const SEED_TIMEOUT_MS = 30_000

/** The first bytes of a zip's first local file header. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]

/**
 * The files at `url` as snapshot entries under `root`. Throws an Error whose message says what
 * went wrong (HTTP status, not a zip or manifest, a path leaving the root).
 */
export async function loadSeedEntries(
  url: string,
  root: string,
  fetchImpl: typeof fetch,
): Promise<Array<[string, SnapshotEntry]>> {
  const response = await fetchImpl(url, { signal: AbortSignal.timeout(SEED_TIMEOUT_MS) })
  if (!response.ok) throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`)
  const bytes = new Uint8Array(await response.arrayBuffer())
  const type = response.headers.get('content-type') ?? ''
  if (type.includes('zip') || ZIP_MAGIC.every((byte, i) => bytes[i] === byte)) {
    return zipEntries(bytes, root)
  }
  return manifestEntries(new TextDecoder().decode(bytes), root)
}

/** Entries from a JSON manifest; paths are relative to the root or absolute, as in `files`. */
export function manifestEntries(text: string, root: string): Array<[string, SnapshotEntry]> {
  let manifest: unknown
  try {
    manifest = JSON.parse(text)
  } catch {
    throw new Error('it is neither a zip nor a JSON manifest')
  }
  const files = (manifest as { files?: unknown } | null)?.files
  // A demo tape is also a manifest (its `files` seed the workspace); one without files has none.
  if (files === undefined && Array.isArray((manifest as { turns?: unknown } | null)?.turns)) return []
  if (typeof files !== 'object' || files === null || Array.isArray(files)) {
    throw new Error('the JSON manifest has no "files" object')
  }
  return Object.entries(files).map(([path, content]): [string, SnapshotEntry] => {
    if (typeof content !== 'string') throw new Error(`the content of "${path}" is not a string`)
    return [resolveWorkspacePath(path, root), { kind: 'file', content }]
  })
}

/** Entries from a zip: files keep their bytes (binary or text alike), `name/` entries are dirs. */
async function zipEntries(bytes: Uint8Array, root: string): Promise<Array<[string, SnapshotEntry]>> {
  const { unzipSync } = await import('fflate')
  let unzipped: Record<string, Uint8Array>
  try {
    unzipped = unzipSync(bytes)
  } catch (error) {
    throw new Error(`the zip is damaged (${error instanceof Error ? error.message : String(error)})`)
  }
  return Object.entries(unzipped).map(([name, data]): [string, SnapshotEntry] => {
    const normalized = normalizeUploadPath(name)
    if (!normalized.ok) throw new Error(`the zip entry "${name}" is refused: ${normalized.reason}`)
    const path = resolveWorkspacePath(normalized.path, root)
    return name.endsWith('/') ? [path, { kind: 'dir' }] : [path, { kind: 'file', content: data }]
  })
}
