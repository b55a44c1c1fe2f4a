// The library as an app would get it: a fresh clone of this repository's HEAD (nothing built,
// nothing ignored by git: engine.wasm must come from build:lib itself), `npm run build:lib`,
// `npm pack`, a tiny separate Vite app
// that installs the tarball and imports fxterm, built and served on its own, then run in
// Chromium: the engine worker, engine.wasm, the bash worker and the demo tape must all resolve
// from inside the package. The reference README's examples (e2e/library-examples/) run from the
// same install in a plain Node 20 script and in a page of the app, with no `wasm` option; its
// quick start and terminal example run as written against AI Gateway's host, answered by the mock.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'
import { textReply } from '../support/chunks.ts'
import { runCommand } from '../support/run-code.ts'
import type { ReceivedRequest, ScriptedResponse } from '../support/mock-model.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PORT = Number(process.env.FX_PACK_PORT ?? 4391)
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, stdio: 'pipe', encoding: 'utf8', env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } })

const MAIN_JS = `
import '@xterm/xterm/css/xterm.css'
import { Terminal } from '@xterm/xterm'
import { createFxTerminal, xtermAdapter, createBashWorkspace } from 'fxterm'

const term = new Terminal({ cols: 100, rows: 30 })
term.open(document.getElementById('terminal'))
const workspace = createBashWorkspace({ files: { 'notes.md': '# From the packed library\\n' } })
const runtime = createFxTerminal({ terminal: xtermAdapter(term), workspace })
window.fxterm = { term, runtime, workspace }
`

// The reference README's examples as a person would paste them (library-examples/): a plain Node
// script, and a page of the same Vite app.
const EXAMPLES = (name: string) => readFileSync(join(ROOT, 'e2e/library-examples', name), 'utf8')
const AGENT_HTML = '<!doctype html><html><body><pre id="out"></pre><script type="module" src="./agent.js"></script></body></html>'
const TERMINAL_HTML = '<!doctype html><html><body><div id="terminal"></div><script type="module" src="./terminal.js"></script></body></html>'
const GATEWAY = 'https://ai-gateway.vercel.sh'

/** A reply that calls tools, as a Chat Completions server streams it. */
const toolCallsReply = (...calls: Array<[string, Record<string, unknown>]>): ScriptedResponse => ({
  chunks: [
    { choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: calls.map(([name, args], i) => ({ index: i, id: `call_${i + 1}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })) }, finish_reason: null }] },
    { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
    { choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } },
  ],
})
const say = (text: string): ScriptedResponse => ({ chunks: textReply(text) })

let app = ''
let clone = ''
let server: ChildProcess | null = null

/** A clone of HEAD as CI gets it, sharing this checkout's installed node_modules. */
function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fxterm-clone-'))
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()
  execFileSync('git', ['clone', '--quiet', '--no-checkout', ROOT, dir], { stdio: 'pipe' })
  execFileSync('git', ['checkout', '--quiet', head], { cwd: dir, stdio: 'pipe' })
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
  return dir
}

/** Runs a script of the app with Node, AI Gateway's host sent to the mock (gateway-redirect.mjs). */
const runWithGateway = (script: string, mockUrl: string, env: Record<string, string | undefined>) =>
  promisify(execFile)(process.execPath, ['--import', './gateway-redirect.mjs', script], { cwd: app, encoding: 'utf8', env: { ...env, MOCK_URL: mockUrl }, timeout: 120_000 })

test.describe('the packed library', () => {
  test.describe.configure({ timeout: 1_200_000 })

  test.beforeAll(async () => {
    test.setTimeout(1_200_000)
    app = mkdtempSync(join(tmpdir(), 'fxterm-pack-'))
    clone = freshClone()
    npm(['run', 'build:lib'], clone)
    const tarball = join(app, npm(['pack', '--silent', '--pack-destination', app], clone).trim().split('\n').at(-1)!)
    const viteVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules/vite/package.json'), 'utf8')) as { version: string }).version
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'fxterm-pack-check', private: true, type: 'module', dependencies: { fxterm: `file:${tarball}`, vite: viteVersion } }, null, 2),
    )
    writeFileSync(join(app, 'index.html'), '<!doctype html><html><body><div id="terminal"></div><script type="module" src="./main.js"></script></body></html>')
    writeFileSync(join(app, 'main.js'), MAIN_JS)
    writeFileSync(join(app, 'agent.html'), AGENT_HTML)
    writeFileSync(join(app, 'agent.js'), EXAMPLES('examples-browser.js'))
    writeFileSync(join(app, 'examples.mjs'), EXAMPLES('examples-node.mjs'))
    writeFileSync(join(app, 'quick-start.mjs'), EXAMPLES('quick-start.mjs'))
    writeFileSync(join(app, 'gateway-redirect.mjs'), EXAMPLES('gateway-redirect.mjs'))
    writeFileSync(join(app, 'terminal.html'), TERMINAL_HTML)
    writeFileSync(join(app, 'terminal.js'), EXAMPLES('terminal-example.js'))
    // fxterm finds its workers and engine.wasm with new URL(…, import.meta.url): Vite's dependency
    // pre-bundling would move the code away from them, so the package is excluded from it.
    writeFileSync(
      join(app, 'vite.config.js'),
      "export default { base: './', optimizeDeps: { exclude: ['fxterm'] }, worker: { format: 'es' }, build: { target: 'es2022', rollupOptions: { input: ['index.html', 'agent.html', 'terminal.html'] } } }\n",
    )
    npm(['install', '--prefer-offline', '--no-package-lock'], app)
    execFileSync(join(app, 'node_modules/.bin/vite'), ['build'], { cwd: app, stdio: 'pipe' })
    server = spawn(join(app, 'node_modules/.bin/vite'), ['preview', '--port', String(PORT), '--strictPort'], { cwd: app, stdio: 'ignore' })
    for (let i = 0; i < 100; i++) {
      if (await fetch(`http://localhost:${PORT}/`).then((r) => r.ok, () => false)) return
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error('the packed app did not start')
  })

  test.afterAll(() => {
    server?.kill()
    if (app) rmSync(app, { recursive: true, force: true })
    if (clone) rmSync(clone, { recursive: true, force: true })
  })

  test("the reference's quick start, as written, streams AI Gateway's reply with AI_GATEWAY_API_KEY", async ({ mock }) => {
    await mock.script(say('An agent loop asks the model, runs its tools, and repeats.'))
    const { stdout } = await runWithGateway('quick-start.mjs', mock.url, { ...process.env, AI_GATEWAY_API_KEY: 'sk-gw-quickstart-0123' })
    expect(stdout.split('\n')).toEqual(['An agent loop asks the model, runs its tools, and repeats.', 'result end_turn undefined', ''])
    const posts = (await mock.hits()).filter((hit) => hit.method === 'POST')
    expect(posts.map((hit) => [hit.path, hit.authorization])).toEqual([['/v1/chat/completions', 'Bearer sk-gw-quickstart-0123']])
    const [sent] = (await mock.requests()) as ReceivedRequest[]
    expect(sent!.model).toBe('anthropic/claude-haiku-5.5')
    expect(String(sent!.messages[0]!.content)).toMatch(/^Answer in one paragraph\./)
  })

  test('the quick start with no key fails naming AI_GATEWAY_API_KEY, sends nothing and plays no demo', async ({ mock }) => {
    const { AI_GATEWAY_API_KEY: _unset, ...env } = process.env
    const { stdout } = await runWithGateway('quick-start.mjs', mock.url, env)
    expect(stdout.split('\n')).toEqual(['', 'result error FX_AI_GATEWAY_API_KEY_MISSING', ''])
    expect(await mock.hits()).toEqual([])
  })

  test("require('fxterm') from the installed tarball says in one sentence that the package is ESM", async () => {
    writeFileSync(join(app, 'require-check.cjs'), "try { require('fxterm') } catch (e) { console.log(e.message) }\n")
    writeFileSync(join(app, 'jspi-check.mjs'), "import { supportsJspi } from 'fxterm'\nconsole.log(String(supportsJspi()))\n")
    const run = async (script: string) => {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [script], { cwd: app, encoding: 'utf8', timeout: 60_000 })
      return { stdout: stdout.trim(), stderr: stderr.trim() }
    }
    expect(await run('require-check.cjs')).toEqual({ stdout: "fxterm is an ES module package: load it with import (or await import('fxterm') from CommonJS), not require().", stderr: '' })
    expect((await run('jspi-check.mjs')).stdout).toBe('false')
  })

  test("the reference's terminal example, as written, answers from AI Gateway with env.AI_GATEWAY_API_KEY and no key store", async ({ page, mock }) => {
    // AI Gateway's host, answered by the mock (the engine worker's requests are routed too).
    await page.context().route(`${GATEWAY}/**`, async (route) => {
      const response = await route.fetch({ url: mock.url + route.request().url().slice(GATEWAY.length) })
      await route.fulfill({ response })
    })
    await mock.script(say('Hello from the gateway.'))
    await page.goto(`http://localhost:${PORT}/terminal.html?key=sk-gw-terminal-0123`)
    const screen = () =>
      page.evaluate(() => {
        const term = (window as Window & { fxterm?: { term: Terminal } }).fxterm?.term
        if (!term) return ''
        const lines: string[] = []
        for (let i = 0; i < term.buffer.active.length; i++) lines.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '')
        return lines.join('\n')
      })
    await expect.poll(screen, { timeout: 20_000 }).toMatch(/Run \/help for commands/)
    await page.locator('.xterm-helper-textarea').focus()
    await page.keyboard.type('say hello')
    await page.keyboard.press('Enter')
    await expect.poll(screen, { timeout: 30_000 }).toContain('Hello from the gateway.')
    expect(await screen()).not.toContain('offline demo')
    const posts = (await mock.hits()).filter((hit) => hit.method === 'POST')
    expect(posts.map((hit) => [hit.path, hit.authorization])).toEqual([['/v1/chat/completions', 'Bearer sk-gw-terminal-0123']])
  })

  test('a separate Vite app imports the tarball and runs a demo turn with a command', async ({ page }) => {
    await page.goto(`http://localhost:${PORT}/`)
    const screen = () =>
      page.evaluate(() => {
        const term = (window as Window & { fxterm?: { term: Terminal } }).fxterm?.term
        if (!term) return ''
        const lines: string[] = []
        for (let i = 0; i < term.buffer.active.length; i++) lines.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '')
        return lines.join('\n')
      })
    await expect.poll(screen, { timeout: 20_000 }).toMatch(/fxterm.*Run \/help for commands/)
    await page.locator('.xterm-helper-textarea').focus()
    await page.keyboard.type("what's in this project?")
    await page.keyboard.press('Enter')
    await expect.poll(screen, { timeout: 30_000 }).toContain('Ran ')
  })

  test("the packed workspace runs node and python3 in fxterm's sandbox, from the package's own files", async ({ page }) => {
    test.setTimeout(120_000)
    await page.goto(`http://localhost:${PORT}/`)
    await page.waitForFunction(() => (window as Window & { fxterm?: object }).fxterm !== undefined)
    expect(await runCommand(page, `node -e 'console.log(6 * 7)'`)).toEqual({ stdout: '42\n', stderr: '', exitCode: 0 })
    expect(await runCommand(page, `python3 -c 'print(6 * 7)'`, { timeoutMs: 60_000 })).toEqual({ stdout: '42\n', stderr: '', exitCode: 0 })
    // Pyodide's files are assets of their own in the app, not megabytes of base64 in a script.
    const scripts = readdirSync(join(app, 'dist/assets')).filter((name) => name.endsWith('.js'))
    expect(scripts.filter((name) => statSync(join(app, 'dist/assets', name)).size > 4_000_000)).toEqual([])
  })

  test("a plain Node 20 script runs the reference's examples from the installed tarball, with no wasm option", async ({ mock }) => {
    await mock.script(
      say('An agent loop asks the model, runs its tools, and repeats.'),
      say('First, the plan.'),
      say('The schema comes first.'),
      say('The change looks right.'),
      toolCallsReply(['get_order', { id: 'A1' }], ['refund_order', { id: 'A1' }], ['who_asks', {}]),
      say('Refunded order A1.'),
      say('Hello back.'),
      say('The axis is cut.'),
      say('The file defines one function.'),
      say('Then the data.'),
      say('I will remember 7.'),
      say('It was 7.'),
    )
    // Not execFileSync: the mock server answers from this process, so it must not be blocked.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['examples.mjs'], { cwd: app, encoding: 'utf8', env: { ...process.env, MOCK_BASE_URL: mock.baseUrl }, timeout: 120_000 })
    expect(output.split('\n')).toEqual([
      'An agent loop asks the model, runs its tools, and repeats.',
      'result end_turn 34 undefined',
      'settings end_turn',
      'tool get_order {"id":"A1","total":30}',
      'tool refund_order refunded',
      'tool who_asks u-42 in support-1',
      // The refund's idempotency key is the call's executionId.
      'refunds A1 support-1:call_2',
      'custom end_turn router',
      'image end_turn',
      'The file defines one function.',
      'restored end_turn',
      'persistence true null end_turn',
      '',
    ])
    const sent = (await mock.requests()) as Array<ReceivedRequest & { reasoning_effort?: string }>
    const users = (i: number) => sent[i]!.messages.filter((m) => m.role === 'user').map((m) => m.content)
    // Sessions: the next prompt and the per-session settings continue the stored conversation.
    expect(users(2)).toEqual(['Plan the migration.', 'Start with the schema.'])
    expect(sent[3]).toMatchObject({ model: 'anthropic/claude-opus-5.5', reasoning_effort: 'high' })
    expect(sent[3]!.messages[0]!.content).toMatch(/^You review pull requests\./)
    expect(users(3)).toEqual(['Plan the migration.', 'Start with the schema.', 'Review the schema change.'])
    // Tools: offered with their schemas; the credentials' key went to the custom provider only.
    expect((sent[4]!.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(['get_order', 'refund_order', 'who_asks'])
    const hits = (await mock.hits()).filter((hit) => hit.method === 'POST')
    expect(hits[6]!.authorization).toBe('Bearer sk-router-0123456789')
    expect(hits.filter((hit) => hit.authorization !== null).length).toBe(1)
    // The image prompt reached the model as an image.
    expect(users(7)).toEqual([[{ type: 'text', text: "What's wrong with this chart?" }, { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) } }]])
    // The checkpoint and the persistence store carried the conversations.
    expect(users(9)).toEqual(['Summarize this file.', 'And the next one?'])
    expect(users(11)).toEqual(['Remember the number 7.', 'Which number?'])
  })

  test("a page of the Vite app runs the reference's examples in the browser, in the agent's worker, with no wasm option", async ({ page, mock }) => {
    await mock.script(
      say('An agent loop asks the model.'),
      say('First, the plan.'),
      say('The schema comes first.'),
      say('The change looks right.'),
      toolCallsReply(['get_order', { id: 'A1' }], ['refund_order', { id: 'A1' }]),
      say('Refunded A1.'),
      say('Hello back.'),
      say('A noisy photo.'),
      say('The file defines one function.'),
      say('Then the data.'),
      say('I will remember 7.'),
      say('It was 7.'),
    )
    await page.goto(`http://localhost:${PORT}/agent.html?mock=${encodeURIComponent(mock.baseUrl)}`)
    await expect(page.locator('body')).toHaveAttribute('data-done', /yes|error/, { timeout: 60_000 })
    expect((await page.locator('#out').textContent())!.split('\n')).toEqual([
      'An agent loop asks the model.',
      'readable turn_start user_message text_delta turn_end',
      'stream turn_start',
      'result end_turn 34 undefined',
      'settings end_turn',
      'tool get_order {"id":"A1","total":30,"userId":"u-7"}',
      'tool refund_order refunded',
      'refunds A1 shop-1:call_2 shop-1',
      'custom end_turn',
      'image true end_turn',
      'restored end_turn',
      'persistence true null end_turn',
      '',
    ])
    const sent = (await mock.requests()) as Array<ReceivedRequest & { reasoning_effort?: string }>
    expect(sent[3]).toMatchObject({ model: 'anthropic/claude-opus-5.5', reasoning_effort: 'high' })
    // The 7th request (a page's CORS preflights aside) carried the key credentials() gave.
    expect((await mock.hits()).filter((hit) => hit.method === 'POST')[6]!.authorization).toBe('Bearer sk-router-0123456789')
    // The photo was made to fit by the browser's canvas: a JPEG within 3.75 MiB was sent.
    const photo = sent[7]!.messages.find((m) => m.role === 'user')!.content as Array<{ type: string; image_url?: { url: string } }>
    const url = photo.find((part) => part.type === 'image_url')!.image_url!.url
    expect(url.startsWith('data:image/jpeg;base64,')).toBe(true)
    expect(((url.length - 'data:image/jpeg;base64,'.length) * 3) / 4).toBeLessThanOrEqual(3.75 * 1024 * 1024)
  })
})
