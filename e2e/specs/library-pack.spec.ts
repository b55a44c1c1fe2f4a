// The library as an app would get it: `npm run build:lib`, `npm pack`, a tiny separate Vite app
// that installs the tarball and imports fxterm, built and served on its own, then run in
// Chromium: the engine worker, engine.wasm, the bash worker and the demo tape must all resolve
// from inside the package.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { promisify } from 'node:util'
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Terminal } from '@xterm/xterm'
import { test, expect } from '../support/fixtures.ts'
import { textReply } from '../support/chunks.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PORT = Number(process.env.FX_PACK_PORT ?? 4391)
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, stdio: 'pipe', encoding: 'utf8', env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } })

const MAIN_JS = `
import '@xterm/xterm/css/xterm.css'
import { Terminal } from '@xterm/xterm'
import { createFxTerminal, xtermAdapter, createBashWorkspace } from 'fxterm'

const term = new Terminal({ cols: 100, rows: 30 })
term.open(document.getElementById('terminal'))
const runtime = createFxTerminal({
  terminal: xtermAdapter(term),
  workspace: createBashWorkspace({ files: { 'README.md': '# From the packed library\\n' } }),
})
window.fxterm = { term, runtime }
`

// The reference README's examples (../shared/reference/libfx-README.md: the quick start,
// "Sessions", "Custom providers" and "Without sessions"), as written but for the import name
// (fxterm) and the model server (the mock's base URL, a custom provider needing no key).
const EXAMPLES_JS = `
import { createFxAgent, createFxEngine } from "fxterm";

const router = {
  name: "router",
  baseUrl: process.env.MOCK_BASE_URL,
  models: { "qwen/qwen3-coder": { contextWindow: 128000, supportsToolUse: true } },
};

// Quick start
const agent = createFxAgent({
  provider: router,
  model: "qwen/qwen3-coder",
  instructions: "Answer in one paragraph.",
});

const turn = agent.session().prompt("What is an agent loop?");

for await (const event of turn) {
  if (event.type === "text_delta") process.stdout.write(event.delta);
}
process.stdout.write("\\n");

// Sessions
const planned = agent.session().prompt("Plan the migration.");
const { sessionId } = await planned.accepted; // the prompt is stored
await planned.result;
const next = await agent.session(sessionId).prompt("Start with the schema.").result;
console.log(\`session \${typeof sessionId} \${next.stopReason}\`);

await agent.close();

// Without sessions
const engine = await createFxEngine({ provider: router, model: "qwen/qwen3-coder" });

const summary = engine.prompt("Summarize this file.");
for await (const event of summary) {
  if (event.type === "text_delta") process.stdout.write(event.delta);
}
process.stdout.write("\\n");

const checkpoint = await engine.checkpoint(); // opaque bytes, up to 4 MiB
await engine.close();
console.log(\`checkpoint \${checkpoint instanceof Uint8Array && checkpoint.length > 0}\`);

const again = await createFxEngine({ provider: router, model: "qwen/qwen3-coder", checkpoint });
const more = await again.prompt("And the next one?").result;
console.log(\`resumed \${more.stopReason}\`);
await again.close();
`

let app = ''
let server: ChildProcess | null = null

test.describe('the packed library', () => {
  test.describe.configure({ timeout: 300_000 })

  test.beforeAll(async () => {
    test.setTimeout(300_000)
    app = mkdtempSync(join(tmpdir(), 'fxterm-pack-'))
    npm(['run', 'build:lib'], ROOT)
    const tarball = join(app, npm(['pack', '--silent', '--pack-destination', app], ROOT).trim().split('\n').at(-1)!)
    const viteVersion = (JSON.parse(readFileSync(join(ROOT, 'node_modules/vite/package.json'), 'utf8')) as { version: string }).version
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'fxterm-pack-check', private: true, type: 'module', dependencies: { fxterm: `file:${tarball}`, vite: viteVersion } }, null, 2),
    )
    writeFileSync(join(app, 'index.html'), '<!doctype html><html><body><div id="terminal"></div><script type="module" src="./main.js"></script></body></html>')
    writeFileSync(join(app, 'main.js'), MAIN_JS)
    writeFileSync(join(app, 'examples.mjs'), EXAMPLES_JS)
    // fxterm finds its workers and engine.wasm with new URL(…, import.meta.url): Vite's dependency
    // pre-bundling would move the code away from them, so the package is excluded from it.
    writeFileSync(join(app, 'vite.config.js'), "export default { base: './', optimizeDeps: { exclude: ['fxterm'] }, worker: { format: 'es' } }\n")
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

  test("a plain Node 20 script runs the reference's examples from the installed tarball, with no wasm option", async ({ mock }) => {
    await mock.script(
      { chunks: textReply('An agent loop ', 'asks the model, runs its tools, and repeats.') },
      { chunks: textReply('First, the plan.') },
      { chunks: textReply('The schema comes first.') },
      { chunks: textReply('The file defines one function.') },
      { chunks: textReply('Then the data.') },
    )
    // Not execFileSync: the mock server answers from this process, so it must not be blocked.
    const { stdout: output } = await promisify(execFile)(process.execPath, ['examples.mjs'], { cwd: app, encoding: 'utf8', env: { ...process.env, MOCK_BASE_URL: mock.baseUrl }, timeout: 120_000 })
    expect(output.split('\n')).toEqual([
      'An agent loop asks the model, runs its tools, and repeats.',
      'session string end_turn',
      'The file defines one function.',
      'checkpoint true',
      'resumed end_turn',
      '',
    ])
    // The resumed engine sent the whole conversation: the checkpoint carried it.
    const last = (await mock.requests()).at(-1)!
    expect(last.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['Summarize this file.', 'And the next one?'])
  })
})
