// The workspace bench's worker, started in the app's page next to its own bash worker: the same
// command run two ways in one worker, each timed here.
// - bash: straight on just-bash (`new Bash`, exec, nothing else), on a file system of the same
//   kind as the workspace's (the tracked in-memory one its change scan reads);
// - adapter: through a bash session, the workspace's own code in its bash worker (limits, cwd and
//   variables carried over, output cut to the limit), without the page ⇄ worker hop.
// Both hold the same files. Plain messages, so the page needs nothing of ours to talk to it:
// `{ id, call: 'writeFiles', files }` and `{ id, call: 'time', command, path }`, answered with
// `{ id, value }` or `{ id, error }`.
import '../../src/bash-worker/buffer-global.ts'
import { Bash } from 'just-bash/browser'
import { COMMAND_TIMEOUT_MS, OUTPUT_LIMIT_BYTES } from '../../src/shared/protocol/workspace.ts'
import { createBashSession } from '../../src/bash-worker/bash-session.ts'
import { createSnapshotFs } from '../../src/bash-worker/fs-snapshot.ts'
import type { UploadFile } from '../../src/page/workspace/upload-plan.ts'
import { writeWorkspaceFiles } from '../../src/bash-worker/workspace-files.ts'

const ROOT = '/workspace'
const HOME = '/home/user'

type Call = { id: number } & ({ call: 'writeFiles'; files: UploadFile[] } | { call: 'time'; command: string; path: 'bash' | 'adapter' })

const ready = (async () => {
  const session = await createBashSession({ root: ROOT, home: HOME })
  const fs = await createSnapshotFs([], [ROOT, HOME, '/tmp'])
  return { session, fs, bash: new Bash({ fs, cwd: ROOT }) }
})()

/** Writes `files` (relative to the root) for both paths; answers how many each wrote. */
async function writeFiles(files: UploadFile[]): Promise<{ session: number; bash: number }> {
  const { session, fs } = await ready
  const [a, b] = await Promise.all([session.writeFiles(files), writeWorkspaceFiles(fs, ROOT, files)])
  return { session: a.written.length, bash: b.written.length }
}

/** Runs `command` once on `path`; the ms it took, timed in this worker. */
async function time(command: string, path: 'bash' | 'adapter'): Promise<number> {
  const { session, bash } = await ready
  const started = performance.now()
  if (path === 'adapter') await session.exec({ command, cwd: ROOT, timeoutMs: COMMAND_TIMEOUT_MS, outputLimitBytes: OUTPUT_LIMIT_BYTES })
  else await bash.exec(command, { cwd: ROOT, rawScript: true })
  return performance.now() - started
}

onmessage = async (event: MessageEvent<Call>) => {
  const message = event.data
  try {
    const value = message.call === 'writeFiles' ? await writeFiles(message.files) : await time(message.command, message.path)
    postMessage({ id: message.id, value })
  } catch (error) {
    postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) })
  }
}
