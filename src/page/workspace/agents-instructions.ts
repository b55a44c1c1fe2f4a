/**
 * Gathers the AGENTS.md files that apply to a workspace into one text for the model: the
 * user's own (`<home>/.fx/AGENTS.md`) first, then the project's, from the root down to home
 * when home lies inside the root (so the most specific file comes last, where it weighs most).
 */

import type { WorkspaceInfo } from '../../shared/protocol/workspace'
import { cutUtf8, utf8ByteLength } from '../../shared/workspace/truncate-output'

/** The most AGENTS.md text handed to the model, headers included (64 KiB). */
export const AGENTS_MAX_BYTES = 64 * 1024

export type AgentsInstructions = {
  /** The files, each after a `# AGENTS.md from <path>` line; '' when there are none. */
  text: string
  /** The absolute paths of the files found, in the order of `text`. */
  sources: string[]
  /** Bytes of UTF-8 cut from the end to keep `text` within 64 KiB. */
  omittedBytes: number
}

/** What readAgentsInstructions needs of a workspace (BashWorkspace has it). */
export type AgentsSource = {
  info: WorkspaceInfo
  readFile(input: { path: string; signal?: AbortSignal }): Promise<string | null>
}

/** The AGENTS.md paths to read, in order. */
export function agentsPaths(info: WorkspaceInfo): string[] {
  const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`)
  const paths = [join(info.home, '.fx/AGENTS.md')]
  const dirs = [info.root]
  const prefix = info.root === '/' ? '/' : `${info.root}/`
  if (info.home.startsWith(prefix)) {
    let dir = info.root
    for (const segment of info.home.slice(prefix.length).split('/')) {
      dir = join(dir, segment)
      dirs.push(dir)
    }
  }
  return [...paths, ...dirs.map((dir) => join(dir, 'AGENTS.md'))]
}

/**
 * Reads the AGENTS.md files of `workspace` (missing ones are skipped) and joins them, each
 * under a header line, cut on a character boundary at 64 KiB.
 */
export async function readAgentsInstructions(
  workspace: AgentsSource,
  signal?: AbortSignal,
): Promise<AgentsInstructions> {
  const sources: string[] = []
  const sections: string[] = []
  for (const path of agentsPaths(workspace.info)) {
    if (signal?.aborted) break
    const content = await workspace.readFile(signal ? { path, signal } : { path })
    if (content === null) continue
    sources.push(path)
    const body = content === '' || content.endsWith('\n') ? content : `${content}\n`
    sections.push(`# AGENTS.md from ${path}\n${body}`)
  }
  const full = sections.join('\n')
  const text = cutUtf8(full, AGENTS_MAX_BYTES)
  return { text, sources, omittedBytes: utf8ByteLength(full) - utf8ByteLength(text) }
}
