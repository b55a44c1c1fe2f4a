// A second browser: Debian's firefox-esr over WebDriver BiDi (puppeteer-core). Loads the built
// page, types a prompt, gets the demo's reply and its command run; then the cases of
// firefox-key-binding.mjs, firefox-hands.mjs (resize with a table, `!ls`, copy) and
// firefox-git.mjs (clone, commit, push after a yes). Skipped, with a message, when
// no Firefox is installed (FX_FIREFOX_PATH, then firefox-esr and firefox on the PATH).
//
//   node e2e/firefox-smoke.mjs        (after `npm run build`; starts its own preview server)
import { spawn, execFileSync } from 'node:child_process'
import puppeteer from 'puppeteer-core'
import { keyBindingCase } from './firefox-key-binding.mjs'
import { handsCase } from './firefox-hands.mjs'
import { gitCase } from './firefox-git.mjs'

const PORT = Number(process.env.FX_FIREFOX_PORT ?? 4381)
const PROMPT = "what's in this project?"

function findFirefox() {
  if (process.env.FX_FIREFOX_PATH) return process.env.FX_FIREFOX_PATH
  for (const name of ['firefox-esr', 'firefox']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim()
    } catch {
      // not installed
    }
  }
  return null
}

const firefox = findFirefox()
if (!firefox) {
  console.log('firefox smoke test skipped: no Firefox found (apt-get install firefox-esr, or set FX_FIREFOX_PATH)')
  process.exit(0)
}

// Its own process group, so stopping it also stops what npx started.
const server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort'], { stdio: 'ignore', detached: true })
const stopServer = () => {
  try {
    process.kill(-server.pid, 'SIGTERM')
  } catch {
    // already gone
  }
}
let browser
try {
  for (let i = 0; ; i++) {
    if (await fetch(`http://localhost:${PORT}/`).then((r) => r.ok, () => false)) break
    if (i > 100) throw new Error('the preview server did not start')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefox, protocol: 'webDriverBiDi', headless: true })
  const page = await browser.newPage()
  await page.goto(`http://localhost:${PORT}/`)
  const screen = () =>
    page.evaluate(() => {
      const term = window.fxterm?.term
      if (!term) return ''
      const lines = []
      for (let i = 0; i < term.buffer.active.length; i++) lines.push(term.buffer.active.getLine(i)?.translateToString(true) ?? '')
      return lines.join('\n')
    })
  const waitFor = async (what, timeoutMs) => {
    const deadline = Date.now() + timeoutMs
    while (!what.test(await screen())) {
      if (Date.now() > deadline) throw new Error(`Firefox: the screen never showed ${what}:\n${await screen()}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  await waitFor(/fxterm.*Run \/help for commands/, 20_000)
  await page.focus('.xterm-helper-textarea')
  await page.keyboard.type(PROMPT)
  await waitFor(/❯ what's in this project\?/, 10_000)
  await page.keyboard.press('Enter')
  await waitFor(/Ran /, 30_000)
  // The files last with the session: a file put in the workspace is there after a reload.
  await page.evaluate(async () => {
    const workspace = window.fxterm.workspace
    await workspace.writeFiles([{ path: 'kept.txt', data: new TextEncoder().encode('still here\n') }])
    await workspace.persisted()
    // Then a command writes 300 files and a 2 MB one, and the page reloads as soon as it answers.
    const many = 'mkdir -p many && for i in $(seq 1 300); do echo "n $i" > many/f$i.txt; done && printf "%01048576d" 0 > m && cat m m > big.bin && rm m'
    await workspace.exec({ command: many, cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 })
  })
  await page.reload()
  await waitFor(/Session resumed/, 20_000)
  // The resumed session's files come back just after its line is drawn: ask until they are there.
  let kept = null
  for (let i = 0; i < 50 && kept === null; i++) {
    kept = await page.evaluate(() => window.fxterm.workspace.readFile({ path: 'kept.txt' }))
    if (kept === null) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  if (kept !== 'still here\n') throw new Error(`Firefox: after a reload kept.txt held ${JSON.stringify(kept)}, not "still here"`)
  const written = await page.evaluate(
    () => window.fxterm.workspace.exec({ command: 'ls many | wc -l; cat many/f300.txt; wc -c < big.bin', cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 }),
  )
  if (written.stdout !== '300\nn 300\n2097152\n') throw new Error(`Firefox: after a reload right after a command, its files were ${JSON.stringify(written.stdout + written.stderr)}`)
  // Code runs in the sandbox: node on the browser's engine, python3 in Pyodide.
  const run = (command) =>
    page.evaluate(
      (line) => window.fxterm.workspace.exec({ command: line, cwd: '/workspace', signal: new AbortController().signal, timeoutMs: 30_000, outputLimitBytes: 65_536 }),
      command,
    )
  for (const [command, expected] of [[`node -e 'console.log(6 * 7)'`, '42\n'], [`python3 -c 'print(6 * 7)'`, '42\n']]) {
    const result = await run(command)
    if (result.stdout !== expected || result.exitCode !== 0) throw new Error(`Firefox: ${command} gave ${JSON.stringify(result)}`)
  }
  await keyBindingCase(page, `http://localhost:${PORT}`, waitFor)
  await handsCase(page, `http://localhost:${PORT}`, waitFor)
  await gitCase(page)
  console.log(`firefox smoke test passed in ${(await browser.version())}: typed, the demo replied, a command ran, a file and a command's 300 files survived a reload, node and python3 ran, a key stayed at its origin, a table survived 1100 → 500 → 1100 px, !ls ran with no model request, Ctrl+C copied a selection, git cloned, committed and pushed after a yes`)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
} finally {
  await browser?.close()
  stopServer()
}
