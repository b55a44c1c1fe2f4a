/**
 * What slash commands ask the page to do: `/files` lists the workspace, `/download` saves it as
 * a zip, `/open` asks for a folder and makes it the workspace. Each answers with a notice for the transcript; a workspace without the needed method
 * gets a notice saying so.
 */
import type { WorkspaceExtras } from '../../shared/protocol/workspace.ts'
import type { HostAction, HostNotice } from '../../shared/messages/engine-frames.ts'

const MAX_LISTED = 500

export async function performHostAction(
  request: HostAction,
  workspace: WorkspaceExtras | null,
  save: (name: string, bytes: Uint8Array, mimeType: string) => void,
): Promise<HostNotice> {
  const action = request.action
  try {
    if (request.action === 'export') {
      // A tape carries the workspace's starting files, so its replay runs the commands on them.
      const content = request.tape ? withStartingFiles(request.content, await workspace?.seedFiles?.()) : request.content
      const bytes = new TextEncoder().encode(content)
      save(request.fileName, bytes, request.mimeType)
      return { text: `Saved ${request.fileName} (${formatSize(bytes.length)}).`, level: 'info' }
    }
    if (action === 'open') return await openFolder(workspace)
    if (action === 'files') {
      if (!workspace?.listFiles) return { text: 'This workspace cannot list its files.', level: 'warning' }
      return { text: formatFileList(await workspace.listFiles()), level: 'plain' }
    }
    if (!workspace?.exportZip) return { text: 'This workspace cannot be downloaded.', level: 'warning' }
    const zip = await workspace.exportZip()
    save('workspace.zip', zip, 'application/zip')
    return { text: `Saved workspace.zip (${formatSize(zip.length)}).`, level: 'info' }
  } catch (error) {
    return { text: `/${action} failed: ${error instanceof Error ? error.message : String(error)}`, level: 'error' }
  }
}

type PickerWindow = { showDirectoryPicker?: (options: { mode: 'readwrite' }) => Promise<FileSystemDirectoryHandle> }

/** `/open`: the browser's folder picker, then the workspace reads the folder in. */
async function openFolder(workspace: WorkspaceExtras | null): Promise<HostNotice> {
  if (!workspace?.openFolder) return { text: 'This workspace cannot open a folder.', level: 'warning' }
  const picker = (globalThis as PickerWindow).showDirectoryPicker
  if (typeof picker !== 'function') {
    return { text: 'This browser cannot open a folder (it has no File System Access API): drop files onto the terminal to bring them in, and /download the result.', level: 'warning' }
  }
  let dir: FileSystemDirectoryHandle
  try {
    dir = await picker.call(globalThis, { mode: 'readwrite' })
  } catch (error) {
    if ((error as DOMException).name === 'AbortError') return { text: 'No folder was opened.', level: 'info' }
    throw error
  }
  return { text: await workspace.openFolder(dir), level: 'info' }
}

function withStartingFiles(tape: string, files: Record<string, string> | undefined): string {
  const parsed = JSON.parse(tape) as Record<string, unknown>
  return JSON.stringify({ ...parsed, files: files ?? {} }, null, 2)
}

/** Paths relative to the root → an indented listing, directories before their files. */
export function formatFileList(paths: string[]): string {
  if (paths.length === 0) return 'The workspace is empty.'
  const lines: string[] = []
  const seen = new Set<string>()
  for (const path of paths.slice(0, MAX_LISTED)) {
    const parts = path.split('/')
    for (let depth = 0; depth < parts.length; depth++) {
      const key = parts.slice(0, depth + 1).join('/')
      if (seen.has(key)) continue
      seen.add(key)
      const isDir = depth < parts.length - 1
      lines.push(`${'  '.repeat(depth + 1)}${parts[depth]}${isDir ? '/' : ''}`)
    }
  }
  const more = paths.length > MAX_LISTED ? `\n  … and ${paths.length - MAX_LISTED} more files` : ''
  return `Files in the workspace (${paths.length}):\n${lines.join('\n')}${more}`
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** Saves bytes as a download in the browser. */
export function saveDownload(name: string, bytes: Uint8Array, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: mimeType }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.style.display = 'none'
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
