// `python3` in the workspace (issue 22): CPython from fxterm's own files, loaded on first use
// with a line saying so, unittest's exit codes, and a loop that never ends stopped.
import { test, expect } from '../support/fixtures.ts'
import { openDemo, openWithMock } from '../support/app.ts'
import { commandReply, textReply } from '../support/chunks.ts'
import { readWorkspaceFile } from '../support/workspace.ts'
import { readViewport, submitPrompt, waitForScreen } from '../support/screen.ts'
import { toolResultText } from '../support/tool-messages.ts'
import { MARKED_SANDBOX, markSandbox, runCommand, writeWorkspaceFiles } from '../support/run-code.ts'

// Pyodide's first load compiles a large wasm: generous, since the machines are shared.
test.setTimeout(120_000)

test('the agent runs python3 -c: Python loads on first use with a line saying so', async ({ page, mock }) => {
  await mock.script({ chunks: commandReply('call_py', `python3 -c 'import sys; print(6 * 7, sys.version_info.major)'`) }, { chunks: textReply('It printed 42.') })
  // Python starts loading once the page is idle: its wasm is held back until the line was seen,
  // so the command surely finds it still loading.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/pyodide\.asm.*\.wasm$/, async (route) => {
    await held
    await route.continue()
  })
  await openWithMock(page, mock)
  await submitPrompt(page, 'what is six times seven in python?')
  // On the activity row while Pyodide loads, in place of "Running…".
  await expect.poll(async () => (await readViewport(page)).some((row) => row.includes('Loading Python (first use)…') && row.includes('esc to interrupt')), { timeout: 90_000 }).toBe(true)
  release()
  await waitForScreen(page, 'It printed 42.', 90_000)
  const requests = await mock.requests()
  expect(toolResultText(requests.at(-1), 'call_py')).toContain('42 3')
})

test('python3 runs workspace files that import each other, writes files, and keeps exit codes', async ({ page }) => {
  await openDemo(page)
  await writeWorkspaceFiles(page, {
    'py/helper.py': 'def double(n):\n    return n * 2\n',
    'py/main.py': 'import sys\nfrom helper import double\nopen("result.txt", "w").write(str(double(21)))\nprint("args", sys.argv[1:])\nsys.exit(3)\n',
  })
  const result = await runCommand(page, 'cd py && python3 main.py a b; echo "exit $?"; cat result.txt', { timeoutMs: 30_000 })
  expect(result.stdout).toBe("args ['a', 'b']\nexit 3\n42")
  expect(await readWorkspaceFile(page, 'py/result.txt')).toBe('42')
  const failed = await runCommand(page, `python3 -c 'raise ValueError("bad input")'`)
  expect(failed.exitCode).toBe(1)
  expect(failed.stderr).toContain('ValueError: bad input')
})

test('Python loads once the page is idle after its first prompt, before python3 asks, and only once', async ({ page }) => {
  // Issue 31 changed this: Python used to load only once a .py file was written (and a .js file
  // loaded nothing); now the first python3 after the page is interactive must not wait for it.
  const pyodideAsked = (request: { url(): string }) => /pyodide\.asm.*\.wasm$/.test(new URL(request.url()).pathname)
  const asked: string[] = []
  page.on('request', (request) => pyodideAsked(request) && asked.push(request.url()))
  const loading = page.waitForRequest(pyodideAsked, { timeout: 60_000 })
  await openDemo(page)
  await loading
  await writeWorkspaceFiles(page, { 'app.js': 'console.log("js")\n', 'hello.py': 'print("hello from a file")\n' })
  expect(await runCommand(page, 'node app.js')).toMatchObject({ stdout: 'js\n', exitCode: 0 })
  expect(await runCommand(page, 'python3 hello.py')).toEqual({ stdout: 'hello from a file\n', stderr: '', exitCode: 0 })
  expect(await runCommand(page, 'python3 hello.py')).toEqual({ stdout: 'hello from a file\n', stderr: '', exitCode: 0 })
  expect(asked.length).toBe(1) // loaded once, used by every run
})

test('python3 -m unittest passes with 0 and fails with 1', async ({ page }) => {
  await openDemo(page)
  await writeWorkspaceFiles(page, {
    'test_ok.py': 'import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 2)\n',
    'bad/test_bad.py': 'import unittest\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(1 + 1, 3)\n',
  })
  const passing = await runCommand(page, 'python3 -m unittest test_ok')
  expect(passing.exitCode).toBe(0)
  expect(passing.stderr).toContain('OK')
  const failing = await runCommand(page, 'cd bad && python3 -m unittest test_bad')
  expect(failing.exitCode).toBe(1)
  expect(failing.stderr).toContain('FAILED (failures=1)')
  expect(await runCommand(page, 'pip install requests')).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('packages cannot be installed here') })
  const offline = await runCommand(page, `python3 -c 'import urllib.request; urllib.request.urlopen("https://example.com")'`)
  expect(offline.exitCode).toBe(1)
  expect(offline.stderr).toMatch(/urllib\.error\.URLError: <urlopen error \[Errno \d+\] fxterm's python3 cannot reach the network: code here runs in a sandbox without it>\n$/)
})

test('a Python loop that never ends is stopped by the time limit, and the next run works', async ({ page }) => {
  await openDemo(page)
  expect(await runCommand(page, `python3 -c 'print("warm")'`)).toMatchObject({ stdout: 'warm\n' })
  await markSandbox(page)
  const stopped = await runCommand(page, `python3 -c 'while True: pass'`, { timeoutMs: 2000 })
  expect(stopped.exitCode).toBe(124)
  await expect(page.locator(MARKED_SANDBOX)).toHaveCount(0)
  expect(await runCommand(page, `python3 -c 'print("again")'`)).toMatchObject({ stdout: 'again\n', exitCode: 0 })
})

test('Python that asks for more memory than there is gets MemoryError, and the next run works', async ({ page }) => {
  await openDemo(page)
  // Each block is as large as one object may be (2 GiB - 1); three are more than WebAssembly's 4 GiB.
  const greedy = await runCommand(page, `python3 -c 'blocks = [bytearray(2**31 - 1) for _ in range(3)]'`)
  expect(greedy.exitCode).toBe(1)
  expect(greedy.stderr).toContain('MemoryError')
  expect(await runCommand(page, `python3 -c 'print("still here")'`)).toMatchObject({ stdout: 'still here\n', exitCode: 0 })
})
