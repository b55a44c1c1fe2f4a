/**
 * Bash worker side: the shell commands that run code — `node`, `python3`/`python`, and `npm` and
 * `pip` as far as they make sense offline. The code itself runs in the page's sandbox (see
 * src/sandbox/): each run gets a copy of the files under the workspace root, and what the run
 * wrote comes back and is written here, so it persists and shows in /diff like any change.
 */

import { defineCommand, type Command, type IFileSystem, type ResolvedCommandContext } from 'just-bash/browser'
import type { CodeRunReply, RunRequest, SandboxFiles } from '../shared/sandbox/runtime-types'
import { isUnder, resolveRealPath } from './real-path'
import { exitStatus } from '../shared/sandbox/exit-status'
import { resolveWorkspacePath } from '../shared/workspace/workspace-paths'
import { npmCommand } from './npm-command'
import type { RemoteCodeRunner } from '../shared/messages/bash-worker-api.ts'
export type { RemoteCodeRunner } from '../shared/messages/bash-worker-api.ts'

type Output = { stdout: string; stderr: string; exitCode: number }

let nextRun = 1
const decoder = new TextDecoder()

const PIP_LINE =
  'pip: packages cannot be installed here: fxterm runs offline in this browser tab, with Python\'s standard library only\n'

/** The commands, or commands that say why code cannot run when there is no runner (no page). */
export function codeCommands(runner: RemoteCodeRunner | undefined, root: string): Command[] {
  const run = (runtime: RunRequest['runtime'], args: string[], ctx: ResolvedCommandContext) =>
    runner ? runCode(runner, root, runtime, args, ctx) : Promise.resolve(noRunner(runtime === 'node' ? 'node' : 'python3'))
  const python = (args: string[], ctx: ResolvedCommandContext) => {
    const module = args[0] === '-m' ? args[1] : undefined
    if (module === 'pip' || module === 'ensurepip') return Promise.resolve(fail(PIP_LINE))
    return run('python', args, ctx)
  }
  return [
    defineCommand('node', (args, ctx) => run('node', args, ctx)),
    defineCommand('python3', python),
    defineCommand('python', python),
    defineCommand('pip', () => Promise.resolve(fail(PIP_LINE))),
    defineCommand('pip3', () => Promise.resolve(fail(PIP_LINE))),
    defineCommand('npm', (args, ctx) => npmCommand(args, ctx, root)),
    defineCommand('npx', () => Promise.resolve(fail('npx: packages cannot be downloaded here: fxterm runs offline in this browser tab\n'))),
  ]
}

function fail(stderr: string, exitCode = 1): Output {
  return { stdout: '', stderr, exitCode }
}

function noRunner(name: string): Output {
  return fail(`${name}: not available here: code runs in the page's sandbox, and this workspace has no page\n`, 127)
}

async function runCode(
  runner: RemoteCodeRunner,
  root: string,
  runtime: RunRequest['runtime'],
  args: string[],
  ctx: ResolvedCommandContext,
): Promise<Output> {
  const id = nextRun++
  const cwd = resolveWorkspacePath(ctx.cwd, root)
  const request: RunRequest = {
    runtime,
    argv: args,
    // Nothing outside the root exists for the code; a shell elsewhere runs it from the root.
    cwd: cwd === root || cwd.startsWith(`${root}/`) ? cwd : root,
    root,
    env: Object.fromEntries(ctx.exportedEnv ? Object.entries(ctx.exportedEnv) : ctx.env),
    files: await filesUnder(ctx.fs, root),
    ...(stdinBytes(ctx) ? { stdin: stdinBytes(ctx)! } : {}),
  }
  const cancel = () => void Promise.resolve(runner.cancel(id)).catch(() => undefined)
  ctx.signal?.addEventListener('abort', cancel, { once: true })
  let reply: CodeRunReply
  try {
    reply = await runner.run(id, request)
  } catch (error) {
    return fail(`fxterm: could not run ${runtime === 'node' ? 'node' : 'python3'}: ${error instanceof Error ? error.message : String(error)}\n`)
  } finally {
    ctx.signal?.removeEventListener('abort', cancel)
  }
  const stdout = decoder.decode(reply.stdout)
  let stderr = decoder.decode(reply.stderr)
  if (reply.stopped === 'crashed' || reply.stopped === 'unavailable') {
    stderr += `fxterm: the code sandbox ${reply.stopped === 'crashed' ? 'stopped' : 'is not available'}: ${reply.reason ?? 'no reason given'}\n`
  }
  if (!reply.stopped) stderr += await applyChanges(ctx.fs, root, reply.changes)
  // An exit status is one byte, as the OS keeps it: sys.exit(256) and process.exit(-1) too.
  return { stdout, stderr, exitCode: exitStatus(reply.exitCode) }
}

function stdinBytes(ctx: ResolvedCommandContext): Uint8Array | null {
  // just-bash keeps stdin as a latin1 byte string: one char per byte.
  const text = ctx.stdin as unknown as string
  if (!text) return null
  return Uint8Array.from(text, (char) => char.charCodeAt(0))
}

/**
 * Every file under `root` (a symlink as a copy of its file, as the shell reads it), by absolute
 * path. A link that leads outside the root is left out: what is outside does not exist for the code.
 */
async function filesUnder(fs: IFileSystem, root: string): Promise<SandboxFiles> {
  const files: SandboxFiles = {}
  for (const path of fs.getAllPaths()) {
    if (!path.startsWith(`${root}/`)) continue
    const stat = await fs.stat(path).catch(() => null)
    if (!stat?.isFile) continue
    const real = await resolveRealPath(fs, path)
    if (real.ok && isUnder(real.real, root)) files[path] = await fs.readFileBuffer(path)
  }
  return files
}

/**
 * Writes what the run changed, only under the root: a path from the sandbox is not trusted, and
 * neither is a symlink in the workspace along it (the code saw a copy, so its write through a
 * link lands here). A link inside the root is written through, and stays a link; one leading out
 * is refused. Answers a line for each change that could not be made (for stderr), or ''.
 */
async function applyChanges(fs: IFileSystem, root: string, changes: Record<string, Uint8Array | null>): Promise<string> {
  let failures = ''
  for (const [path, bytes] of Object.entries(changes)) {
    if (resolveWorkspacePath(path, root) !== path || !path.startsWith(`${root}/`)) {
      failures += `fxterm: the code's change to ${path} was not kept: it is outside ${root}\n`
      continue
    }
    // A removal takes the link itself away (as rm does), so only writes follow links.
    const real = bytes === null ? { ok: true as const, real: path } : await resolveRealPath(fs, path)
    if (!real.ok || !isUnder(real.real, root) || real.real === root) {
      failures += `fxterm: the code's change to ${path} was not kept: ${real.ok ? `a symlink leads it outside ${root}, to ${real.real}` : 'its symlinks loop'}\n`
      continue
    }
    try {
      if (bytes === null) await fs.rm(path, { force: true })
      else {
        await fs.mkdir(real.real.slice(0, real.real.lastIndexOf('/')), { recursive: true })
        await fs.writeFile(real.real, bytes)
        // The shell must find it by the path the code used: a write that went nowhere is no write.
        if (!(await fs.exists(path))) throw new Error('it is not there after the write')
      }
    } catch (error) {
      failures += `fxterm: could not ${bytes === null ? 'remove' : 'write'} ${path}: ${error instanceof Error ? error.message : String(error)}\n`
    }
  }
  return failures
}
