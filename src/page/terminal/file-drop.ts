/**
 * Drag-and-drop uploads: files or whole folders dropped onto the terminal are written into the
 * workspace (paths kept relative to what was dropped), and the transcript lists what arrived.
 */
import type { WorkspaceExtras } from '../../shared/protocol/workspace.ts'
import type { HostNotice } from '../../shared/messages/engine-frames.ts'

export const UPLOAD_LIMIT_BYTES = 50 * 1024 * 1024
const MAX_NAMED = 12

type Dropped = { path: string; file: File }

/** Listens for drops on `target`; returns an unsubscribe. */
export function attachFileDrop(target: HTMLElement, workspace: WorkspaceExtras, notify: (notice: HostNotice) => void): () => void {
  const over = (event: DragEvent) => {
    if (!event.dataTransfer?.types.includes('Files')) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
  }
  const drop = (event: DragEvent) => {
    if (!event.dataTransfer?.types.includes('Files')) return
    event.preventDefault()
    void collect(event.dataTransfer).then((files) => upload(files, workspace)).then(notify)
  }
  target.addEventListener('dragover', over)
  target.addEventListener('drop', drop)
  return () => {
    target.removeEventListener('dragover', over)
    target.removeEventListener('drop', drop)
  }
}

/** Writes the dropped files into the workspace and describes the result. */
export async function upload(files: Dropped[], workspace: WorkspaceExtras): Promise<HostNotice> {
  if (!workspace.writeFiles) return { text: 'This workspace does not accept uploads.', level: 'warning' }
  if (files.length === 0) return { text: 'Nothing was dropped that could be read.', level: 'warning' }
  let total = 0
  const accepted: Array<{ path: string; data: Uint8Array }> = []
  const tooBig: string[] = []
  for (const { path, file } of files) {
    if (total + file.size > UPLOAD_LIMIT_BYTES) {
      tooBig.push(path)
      continue
    }
    total += file.size
    accepted.push({ path, data: new Uint8Array(await file.arrayBuffer()) })
  }
  try {
    const { written, skipped } = await workspace.writeFiles(accepted)
    const parts: string[] = []
    if (written.length > 0) {
      const named = written.slice(0, MAX_NAMED).join(', ')
      const more = written.length > MAX_NAMED ? ` and ${written.length - MAX_NAMED} more` : ''
      parts.push(`Uploaded ${written.length} file${written.length === 1 ? '' : 's'} to the workspace: ${named}${more}.`)
    }
    const refused = [...skipped.map((s) => `${s.path} (${s.reason})`), ...tooBig.map((p) => `${p} (over the 50 MB upload limit)`)]
    if (refused.length > 0) parts.push(`Not uploaded: ${refused.slice(0, MAX_NAMED).join(', ')}${refused.length > MAX_NAMED ? ', …' : ''}.`)
    return { text: parts.join(' '), level: written.length > 0 ? 'info' : 'warning' }
  } catch (error) {
    return { text: `The upload failed: ${error instanceof Error ? error.message : String(error)}`, level: 'error' }
  }
}

/** Files from a drop, folders walked through the entries API where the browser has it. */
async function collect(data: DataTransfer): Promise<Dropped[]> {
  const entries = [...data.items]
    .map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null))
    .filter((entry): entry is FileSystemEntry => entry !== null)
  if (entries.length === 0) return [...data.files].map((file) => ({ path: file.name, file }))
  const out: Dropped[] = []
  for (const entry of entries) await walk(entry, '', out)
  return out
}

async function walk(entry: FileSystemEntry, prefix: string, out: Dropped[]): Promise<void> {
  const path = prefix + entry.name
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))
    out.push({ path, file })
    return
  }
  if (!entry.isDirectory) return
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  // readEntries returns at most ~100 entries per call: read until it returns none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject))
    if (batch.length === 0) break
    for (const child of batch) await walk(child, `${path}/`, out)
  }
}
