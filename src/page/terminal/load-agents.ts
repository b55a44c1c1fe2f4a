/**
 * AGENTS.md for the system prompt, read through the workspace before the engine boots. A
 * workspace without `readFile` simply has none; a failure costs a notice, never the start.
 */
import type { WorkspaceAdapter, WorkspaceExtras } from '../../shared/protocol/workspace.ts'
import { readAgentsInstructions } from '../workspace/agents-instructions.ts'

export async function loadAgentsInstructions(workspace: (WorkspaceAdapter & WorkspaceExtras) | null): Promise<{ text: string; notices: string[] }> {
  if (!workspace?.readFile) return { text: '', notices: [] }
  const readFile = workspace.readFile.bind(workspace)
  try {
    // Start-up waits for this, so a slow workspace gets 3 s, not readFile's own 10.
    const { text, sources, omittedBytes } = await readAgentsInstructions({ info: workspace.info, readFile }, AbortSignal.timeout(3_000))
    const notices: string[] = []
    if (sources.length > 0) notices.push(`Instructions loaded from ${sources.join(', ')}.`)
    if (omittedBytes > 0) notices.push(`AGENTS.md is over 64 KiB: the last ${omittedBytes.toLocaleString('en-US')} bytes were left out.`)
    return { text, notices }
  } catch (error) {
    return { text: '', notices: [`AGENTS.md could not be read: ${error instanceof Error ? error.message : String(error)}`] }
  }
}
