/**
 * A demo tape replays only over the files it was recorded with (issue 32). The tape's `files`
 * name them; before a recorded turn runs its first command, the workspace is checked, and the
 * files it lacks are written there, which the reply says in one line. A page with no workspace
 * gets a one-line refusal instead of commands that would answer "No such file or directory".
 *
 * Runs in the engine worker, next to the demo provider; the workspace is reached through the
 * host's exec (the same path the agent's commands take, but drawn nowhere: the line in the
 * reply says what happened).
 */
import type { ExecResult } from '../../shared/protocol/workspace.ts'

/** The workspace as the demo provider sees it: one command at a time, in the workspace's root. */
export type DemoWorkspace = { exec(command: string): Promise<ExecResult> }

/** Ids of the demo's own execs: below zero, so they never meet the engine's. */
let demoExecId = 0

/** The host's exec as a DemoWorkspace rooted at `cwd` (null: the page has no workspace). */
export function demoWorkspaceOver(exec: (id: number, request: { command: string; cwd: string; timeoutMs: number; outputLimitBytes: number }) => Promise<ExecResult>, cwd: string | null): DemoWorkspace | null {
  if (cwd === null) return null
  return { exec: (command) => exec(--demoExecId, { command, cwd, timeoutMs: 10_000, outputLimitBytes: 64 * 1024 }) }
}

/** What the check found: files it added, or why the tape cannot replay here. */
export type DemoFilesOutcome = { added: string[] } | { refused: string }

/** The line a reply starts with when the workspace was given the tape's files. */
export function addedFilesNote(added: string[]): string {
  const shown = added.length <= 4 ? added.join(', ') : `${added.slice(0, 3).join(', ')} and ${added.length - 3} more`
  return `*Offline demo: this workspace did not have the files the demo was recorded with, so they were added (${shown}).*`
}

/** The refusal when there is no workspace to put the files in. */
export const NO_WORKSPACE_REFUSAL = '*Offline demo: this recording runs commands over its own files, and this page has no workspace to put them in, so it is not replayed here.*'

/** A word for bash, single-quoted (a quote inside becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** Where each of the tape's paths stands in the workspace; undefined when it could not be read. */
async function compare(workspace: DemoWorkspace, files: Record<string, string>, paths: string[]) {
  const missing: string[] = []
  const same: string[] = []
  const differs: string[] = []
  for (const path of paths) {
    const quoted = shellQuote(path)
    const result = await workspace.exec(`if [ -e ${quoted} ]; then cat ${quoted}; else exit 3; fi`)
    if (result.exitCode === 3) missing.push(path)
    else if (result.exitCode !== 0) return undefined
    else (result.stdout === files[path] ? same : differs).push(path)
  }
  return { missing, same, differs }
}

/** Writes one file, making its folder first. */
function writeCommand(path: string, content: string): string {
  const slash = path.lastIndexOf('/')
  const folder = slash > 0 ? `mkdir -p ${shellQuote(path.slice(0, slash))} && ` : ''
  return `${folder}printf '%s' ${shellQuote(content)} > ${shellQuote(path)}`
}

/**
 * Gives the workspace the tape's files it lacks. Files it has are left as they are: edited ones
 * are the person's (or the tour's own edits) as long as one file is still as recorded; when none
 * is, the workspace is another project, and the tape refuses. `workspace` null: the page has
 * none, so the tape refuses too.
 */
export async function ensureTapeFiles(workspace: DemoWorkspace | null, files: Record<string, string>): Promise<DemoFilesOutcome> {
  if (workspace === null) return { refused: NO_WORKSPACE_REFUSAL }
  const paths = Object.keys(files).filter((path) => path !== '' && !path.startsWith('/') && !path.split('/').includes('..'))
  if (paths.length === 0) return { added: [] }
  const found = await compare(workspace, files, paths)
  if (found === undefined) return { refused: '*Offline demo: the workspace could not be checked for the files this recording needs, so it is not replayed.*' }
  if (found.differs.length > 0 && found.same.length === 0) return { refused: anotherProject(found.differs[0]!) }
  const added: string[] = []
  for (const path of found.missing) {
    const result = await workspace.exec(writeCommand(path, files[path] ?? ''))
    if (result.exitCode !== 0) return { refused: `*Offline demo: ${path}, a file this recording needs, could not be written to the workspace (${result.stderr.trim() || `exit ${result.exitCode}`}), so it is not replayed.*` }
    added.push(path)
  }
  return { added }
}

/** The refusal over a workspace that holds another project. */
export function anotherProject(path: string): string {
  return `*Offline demo: this workspace holds another project (its ${path} is not the one the demo was recorded with), so the recording is not replayed here; connect a model with /model to talk about it.*`
}
