/**
 * Checks files dropped into the workspace before any is written: each path must stay inside the
 * root, and the files together may not exceed the upload limit. Pure (main thread), so a refused
 * file never reaches the worker, and each refusal comes with a reason the user can read.
 */

import type { UploadFile, SkippedUpload } from '../../shared/messages/bash-worker-api.ts'
export type { UploadFile, SkippedUpload } from '../../shared/messages/bash-worker-api.ts'

/** The most bytes one `writeFiles` call accepts, all files together (50 MB). */
export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024

/** The accepted files, with normalized relative paths, and the refused ones. */
export type UploadPlan = { accepted: UploadFile[]; skipped: SkippedUpload[] }

/**
 * The normalized form of relative `path` ('a/./b' → 'a/b', 'a/../b' → 'b'), or why it cannot
 * be written: absolute, leaving the root through '..', naming the root itself, or holding NUL.
 */
export function normalizeUploadPath(path: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (path.includes('\0')) return { ok: false, reason: 'the path contains a NUL byte' }
  if (path.startsWith('/')) return { ok: false, reason: 'the path must be relative to the workspace root' }
  const segments: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment !== '..') segments.push(segment)
    else if (segments.pop() === undefined) {
      return { ok: false, reason: "the path leaves the workspace root through '..'" }
    }
  }
  if (segments.length === 0) return { ok: false, reason: 'the path names no file' }
  return { ok: true, path: segments.join('/') }
}

/** Accepts files in order while the total stays within 50 MB; a later file that still fits goes too. */
export function planUploads(files: readonly UploadFile[]): UploadPlan {
  const plan: UploadPlan = { accepted: [], skipped: [] }
  let total = 0
  for (const file of files) {
    const path = typeof file.path === 'string' ? file.path : String(file.path)
    const normalized = normalizeUploadPath(path)
    if (!normalized.ok) {
      plan.skipped.push({ path, reason: normalized.reason })
    } else if (!(file.data instanceof Uint8Array)) {
      plan.skipped.push({ path, reason: 'the data is not a Uint8Array' })
    } else if (total + file.data.byteLength > UPLOAD_LIMIT_BYTES) {
      plan.skipped.push({ path, reason: 'over the 50 MB upload limit' })
    } else {
      total += file.data.byteLength
      plan.accepted.push({ path: normalized.path, data: file.data })
    }
  }
  return plan
}
