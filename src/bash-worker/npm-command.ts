/**
 * Bash worker side: `npm` as far as it makes sense in a tab with no network — the scripts of the
 * workspace's package.json run by the shell (`npm test`, `npm start`, `npm run <name>`), with
 * their pre- and post- scripts and node_modules/.bin on the PATH like npm does. Installing says
 * plainly that nothing can be downloaded here.
 */

import type { ResolvedCommandContext } from 'just-bash/browser'
import { resolveWorkspacePath } from '../shared/workspace/workspace-paths'

type Output = { stdout: string; stderr: string; exitCode: number }
type Manifest = { name?: unknown; version?: unknown; scripts?: Record<string, unknown> }

const NPM_VERSION = '10.9.0 (fxterm: scripts only, no registry)'
const INSTALL = new Set(['install', 'i', 'ci', 'add', 'update', 'up', 'uninstall', 'remove', 'rm', 'publish', 'exec', 'x'])

export async function npmCommand(args: string[], ctx: ResolvedCommandContext, root: string): Promise<Output> {
  const [command = '', ...rest] = args
  if (command === '--version' || command === '-v') return { stdout: `${NPM_VERSION}\n`, stderr: '', exitCode: 0 }
  if (INSTALL.has(command)) {
    return fail(`npm ${command}: packages cannot be downloaded here: fxterm runs offline in this browser tab. Code can use node's built-in modules and files already in node_modules/.\n`)
  }
  const found = await findManifest(ctx, root)
  if (typeof found === 'string') return fail(found)
  const { dir, manifest } = found
  const scripts = Object.fromEntries(Object.entries(manifest.scripts ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  if (command === 'test' || command === 't' || command === 'tst' || command === 'start' || command === 'stop' || command === 'restart') {
    return runScript(ctx, dir, manifest, scripts, command.startsWith('t') ? 'test' : command, rest)
  }
  if (command === 'run' || command === 'run-script') {
    const [name, ...more] = rest
    if (!name) return { stdout: listScripts(scripts), stderr: '', exitCode: 0 }
    return runScript(ctx, dir, manifest, scripts, name, more)
  }
  return fail(`npm ${command}: not available here; fxterm's npm runs package.json scripts: npm test, npm start, npm run <script>\n`)
}

function fail(stderr: string): Output {
  return { stdout: '', stderr, exitCode: 1 }
}

/** The nearest package.json from the shell's directory up to the root. */
async function findManifest(ctx: ResolvedCommandContext, root: string): Promise<{ dir: string; manifest: Manifest } | string> {
  let dir = resolveWorkspacePath(ctx.cwd, root)
  for (;;) {
    const path = dir === '/' ? '/package.json' : `${dir}/package.json`
    const text = await ctx.fs.readFile(path).catch(() => null)
    if (text !== null) {
      try {
        const manifest: unknown = JSON.parse(text)
        if (typeof manifest === 'object' && manifest !== null) return { dir, manifest: manifest as Manifest }
        return `npm: ${path} is not a JSON object\n`
      } catch (error) {
        return `npm: ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}\n`
      }
    }
    if (dir === root || dir === '/' || !dir.startsWith(root)) break
    dir = dir.slice(0, dir.lastIndexOf('/')) || '/'
  }
  return `npm: no package.json in ${resolveWorkspacePath(ctx.cwd, root)} or above it (up to ${root})\n`
}

function listScripts(scripts: Record<string, string>): string {
  const names = Object.keys(scripts)
  if (names.length === 0) return 'No scripts in package.json\n'
  return `Scripts available via \`npm run\`:\n${names.map((name) => `  ${name}\n    ${scripts[name]}\n`).join('')}`
}

/** `<script> args` as one shell line: each argument single-quoted. */
function commandLine(script: string, args: string[]): string {
  const extra = (args[0] === '--' ? args.slice(1) : args).map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
  return [script, ...extra].join(' ')
}

async function runScript(
  ctx: ResolvedCommandContext,
  dir: string,
  manifest: Manifest,
  scripts: Record<string, string>,
  name: string,
  args: string[],
): Promise<Output> {
  const script = scripts[name]
  if (script === undefined) {
    if (name === 'test') return fail('npm test: package.json has no "test" script\n')
    if (name === 'start') return runScript(ctx, dir, manifest, { ...scripts, start: 'node server.js' }, name, args)
    return fail(`npm run: package.json has no "${name}" script\n${listScripts(scripts)}`)
  }
  if (!ctx.exec) return fail('npm: this shell cannot run scripts\n')
  const label = `${String(manifest.name ?? '')}${manifest.version ? `@${String(manifest.version)}` : ''}`
  const env = { ...ctx.exportedEnv, PATH: `${dir}/node_modules/.bin:${ctx.env.get('PATH') ?? '/usr/bin:/bin'}`, npm_lifecycle_event: name }
  const out: Output = { stdout: '', stderr: '', exitCode: 0 }
  const steps: Array<[string, string]> = [
    ...(scripts[`pre${name}`] !== undefined ? [[`pre${name}`, scripts[`pre${name}`]!] as [string, string]] : []),
    [name, commandLine(script, args)],
    ...(scripts[`post${name}`] !== undefined ? [[`post${name}`, scripts[`post${name}`]!] as [string, string]] : []),
  ]
  for (const [step, line] of steps) {
    out.stdout += `\n> ${label} ${step}\n> ${line}\n\n`
    const result = await ctx.exec(line, { cwd: dir, env })
    out.stdout += result.stdout
    out.stderr += result.stderr
    out.exitCode = result.exitCode
    if (result.exitCode !== 0) break
  }
  return out
}
