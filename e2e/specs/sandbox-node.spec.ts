// `node` in the workspace (issue 22): real files, ES modules and CommonJS, node:test, npm
// scripts, writes that last, and scripts that never end stopped by the time limit and by Esc.
import { test, expect } from '../support/fixtures.ts'
import { openDemo, openWithMock } from '../support/app.ts'
import { commandReply, finish, roleChunk, textReply, toolCallChunks, usage } from '../support/chunks.ts'
import { toolResultText } from '../support/tool-messages.ts'
import { readWorkspaceFile } from '../support/workspace.ts'
import { pressKey, submitPrompt, waitForScreen, waitForTerminal } from '../support/screen.ts'
import { MARKED_SANDBOX, markSandbox, runCommand, SANDBOX, writeWorkspaceFiles } from '../support/run-code.ts'

test('node -e and -p print, and the exit code is kept', async ({ page }) => {
  await openDemo(page)
  expect(await runCommand(page, `node -e 'console.log("hello from node", 6 * 7)'`)).toEqual({ stdout: 'hello from node 42\n', stderr: '', exitCode: 0 })
  expect(await runCommand(page, `node -p '[1, 2].map((n) => n * 2)'`)).toMatchObject({ stdout: '[ 2, 4 ]\n', exitCode: 0 })
  expect(await runCommand(page, `node -e 'process.exit(3)'; echo "exit $?"`)).toMatchObject({ stdout: 'exit 3\n' })
})

test("a run in a warmed-up spare starts as a fresh process: nothing of fxterm's warm-up shows", async ({ page }) => {
  await openDemo(page)
  // The spare ran fxterm's own console.log, path and setTimeout before this run was sent to it.
  const script = `console.count(); setTimeout(() => console.log('timer'), 0); console.log(process.exitCode, process.cwd(), process.argv.length, process.listenerCount('exit'), typeof warm, typeof up)`
  for (let run = 0; run < 3; run++) {
    expect(await runCommand(page, `node -e "${script}"`)).toEqual({ stdout: 'default: 1\nundefined /workspace 1 0 undefined undefined\ntimer\n', stderr: '', exitCode: 0 })
  }
})

test("console.log prints strings as Node does, whatever comes first", async ({ page }) => {
  await openDemo(page)
  const script = `console.log(1, 'a', { b: 'c' }); console.log('x', 'y'); console.log(require('util').format(null, 'z'))`
  expect(await runCommand(page, `node -e "${script}"`)).toEqual({ stdout: "1 a { b: 'c' }\nx y\nnull z\n", stderr: '', exitCode: 0 })
})

test('node --test prints a passing and a failing test and exits 1', async ({ page }) => {
  await openDemo(page)
  await writeWorkspaceFiles(page, {
    'math.test.mjs': `import { test } from 'node:test'
import assert from 'node:assert/strict'
test('adds', () => assert.equal(1 + 1, 2))
test('subtracts', () => assert.equal(5 - 3, 1))
`,
  })
  const result = await runCommand(page, 'node --test math.test.mjs')
  expect(result.exitCode).toBe(1)
  expect(result.stdout).toMatch(/✔ adds/)
  expect(result.stdout).toMatch(/✖ subtracts/)
  expect(result.stdout).toMatch(/ℹ pass 1/)
  expect(result.stdout).toMatch(/ℹ fail 1/)
})

test('npm test runs the package script: the demo project gets a test that passes', async ({ page }) => {
  await openDemo(page)
  await writeWorkspaceFiles(page, {
    'src/greet.test.js': `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { formatPopulation } from './greet.js'
test('formats millions', () => assert.equal(formatPopulation(37194000), '37.2 million'))
`,
  })
  const result = await runCommand(page, 'npm test')
  expect(result.stdout).toContain('> city-greeter@0.1.0 test\n> node --test src/')
  expect(result.stdout).toMatch(/✔ formats millions/)
  expect(result.stdout).toMatch(/ℹ pass 1/)
  expect(result.exitCode).toBe(0)
})

test('ES modules and CommonJS import each other from workspace files', async ({ page }) => {
  await openDemo(page)
  await writeWorkspaceFiles(page, {
    // The demo project is "type": "module"; this folder is CommonJS.
    'mix/package.json': `{ "type": "commonjs" }\n`,
    'mix/lib/index.js': `module.exports = { twice: (n) => n * 2, data: require('./data.json') }\n`,
    'mix/lib/data.json': `{ "name": "fxterm" }\n`,
    'mix/util.mjs': `export const shout = (text) => text.toUpperCase() + '!'\n`,
    'mix/main.mjs': `import lib from './lib/index.js'
import { twice } from './lib/index.js'
import { shout } from './util.mjs'
console.log(shout(lib.data.name), twice(21), lib.twice(2))
`,
    'mix/main.cjs': `const { twice } = require('./lib')
console.log('cjs', twice(5))
`,
  })
  expect(await runCommand(page, 'cd mix && node main.mjs && node main.cjs')).toMatchObject({ stdout: 'FXTERM! 42 4\ncjs 10\n', exitCode: 0 })
})

test('a file node writes in a turn is a workspace file: the shell sees it and it survives a reload', async ({ page, mock }) => {
  const write = `node -e 'const fs = require("fs"); fs.mkdirSync("out", { recursive: true }); fs.writeFileSync("out/report.txt", "written by node\\n")' && cat out/report.txt`
  await mock.script({ chunks: commandReply('call_node', write) }, { chunks: textReply('Wrote the report.') })
  await openWithMock(page, mock)
  await submitPrompt(page, 'write a report with node')
  await waitForScreen(page, 'Wrote the report.')
  expect(toolResultText((await mock.requests()).at(-1), 'call_node')).toContain('written by node')
  await page.evaluate(() => (window as unknown as { fxterm: { workspace: { persisted(): Promise<void> } } }).fxterm.workspace.persisted())
  await page.reload()
  await waitForTerminal(page)
  await waitForScreen(page, 'Session resumed: write a report with node')
  expect(await readWorkspaceFile(page, 'out/report.txt')).toBe('written by node\n')
})

test('a script that never ends is stopped by the time limit, and the next one runs', async ({ page }) => {
  await openDemo(page)
  await runCommand(page, 'true') // the shell starts, and opens the sandbox ahead of code
  await markSandbox(page)
  const stopped = await runCommand(page, `node -e 'for (;;) {}'`, { timeoutMs: 1500 })
  expect(stopped.exitCode).toBe(124)
  expect(stopped.stderr).toMatch(/timed out|time limit/)
  // The busy sandbox was torn down, not left spinning.
  await expect(page.locator(MARKED_SANDBOX)).toHaveCount(0)
  expect(await runCommand(page, `node -e 'console.log("fresh")'`)).toMatchObject({ stdout: 'fresh\n', exitCode: 0 })
})

test('Esc during a turn stops a node script that never ends', async ({ page, mock }) => {
  await mock.script(
    { chunks: [roleChunk(), ...toolCallChunks({ id: 'call_loop', name: 'run_command', args: { command: `node -e 'for (;;) {}'` } }), finish('tool_calls'), usage()] },
    { chunks: textReply('Stopped.') },
  )
  await openWithMock(page, mock)
  await submitPrompt(page, 'spin forever')
  await waitForScreen(page, "node -e 'for (;;) {}'")
  await page.locator(`${SANDBOX}[data-running]`).waitFor({ state: 'attached' }) // the run has reached the sandbox
  await markSandbox(page)
  await pressKey(page, 'Escape')
  await waitForScreen(page, 'Interrupted · tell fxterm what to do instead')
  await expect(page.locator(MARKED_SANDBOX)).toHaveCount(0)
  expect(await runCommand(page, `node -e 'console.log("after")'`)).toMatchObject({ stdout: 'after\n', exitCode: 0 })
})

test('the offline demo adds a test for greet.js and runs it: all 3 pass', async ({ page }) => {
  await openDemo(page)
  await submitPrompt(page, 'add a test for greet.js')
  await waitForScreen(page, 'Ran npm test')
  await waitForScreen(page, 'all 3 pass', 30_000)
  expect(await readWorkspaceFile(page, 'src/greet.test.js')).toContain("test('greets a city by name, country and population'")
  // The same suite, run again by a person, passes too.
  const again = await runCommand(page, 'npm test')
  expect(again.stdout).toMatch(/ℹ tests 3\nℹ suites 0\nℹ pass 3\nℹ fail 0/)
  expect(again.exitCode).toBe(0)
})

test('a page that died during a run (a heap without end) says so after the reload', async ({ page }) => {
  await openDemo(page)
  // What a tab that ran out of memory in `node grow.js` leaves behind: the run's mark, never cleared.
  await page.evaluate(() => sessionStorage.setItem('fxterm-code-run', 'node grow.js'))
  await page.reload()
  await waitForScreen(page, 'was running; the tab most likely ran out of memory')
  expect(await page.evaluate(() => sessionStorage.getItem('fxterm-code-run'))).toBeNull()
})
