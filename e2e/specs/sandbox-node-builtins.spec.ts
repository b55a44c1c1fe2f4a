// What a small project's code and tests use from node (issue 22), each checked by what it
// prints and its exit code, in one page: node:test's suites and hooks, fs over the workspace,
// timers that keep a script alive, uncaught errors, modules fxterm's node does not have.
import { test, expect } from '../support/fixtures.ts'
import { openDemo } from '../support/app.ts'
import { runCommand, writeWorkspaceFiles } from '../support/run-code.ts'

test('node built-ins behave as a small project expects', async ({ page }) => {
  await openDemo(page)
  await writeWorkspaceFiles(page, {
    'cases/package.json': '{ "type": "commonjs" }\n',
    'cases/suite.test.js': `const { describe, it, before, beforeEach, afterEach, after, test } = require('node:test')
const assert = require('node:assert')
const seen = []
describe('math', () => {
  before(() => seen.push('before'))
  beforeEach(() => seen.push('each'))
  afterEach(() => seen.push('after-each'))
  after(() => console.log('hooks ' + seen.join(',')))
  it('adds', () => assert.strictEqual(1 + 1, 2))
  it.skip('is skipped', () => assert.fail('never'))
  it('deep equals', () => assert.deepStrictEqual({ a: [1, 2] }, { a: [1, 2] }))
})
test('subtests', async (t) => {
  await t.test('inner', () => {})
})
test('skips itself', (t) => { t.skip('not today') })
`,
    'cases/timers.js': `let ticks = 0
const interval = setInterval(() => { if (++ticks === 3) { clearInterval(interval); console.log('ticks', ticks) } }, 5)
setTimeout(() => console.log('later'), 20)
process.on('exit', (code) => console.log('exit event', code))
`,
    'cases/exit-in-timer.js': `setTimeout(() => { console.log('before exit'); process.exit(4); console.log('never') }, 1)
setTimeout(() => console.log('never either'), 50)
`,
    'cases/throws.js': `function boom() {
  throw new Error('boom')
}
boom()
`,
    'cases/reject.mjs': `await Promise.resolve()
Promise.reject(new TypeError('nobody caught me'))
`,
    'cases/leak.js': `globalThis.leaked = 'yes'; console.log(typeof globalThis.leaked)\n`,
    'cases/check-leak.js': `console.log(typeof globalThis.leaked)\n`,
    'cases/fs.js': `const fs = require('fs')
const path = require('path')
fs.writeFileSync(path.join(__dirname, 'made.txt'), 'hello')
fs.appendFileSync('made.txt', ' world')
console.log(fs.readFileSync('made.txt', 'utf8'), fs.existsSync('made.txt'), fs.statSync('made.txt').size)
console.log(fs.readdirSync('.').includes('made.txt'), fs.readdirSync('.', { withFileTypes: true }).find((d) => d.name === 'made.txt').isFile())
try { fs.readFileSync('/home/user/.bashrc') } catch (e) { console.log(e.code) }
try { fs.readFileSync('missing.txt') } catch (e) { console.log(e.code, e.message) }
fs.promises.readFile('made.txt', 'utf8').then((text) => console.log('promise', text))
fs.readFile('made.txt', 'utf8', (err, text) => console.log('callback', err, text))
`,
    'cases/meta.mjs': `import data from './data.json' with { type: 'json' }
import { fileURLToPath } from 'node:url'
import { EventEmitter } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
const { twice } = await import('./' + 'dyn.mjs')
const emitter = new EventEmitter()
emitter.on('hi', (name) => console.log('hi', name))
emitter.emit('hi', data.name)
await sleep(5)
console.log(fileURLToPath(import.meta.url), twice(4), Buffer.from('fx').toString('hex'), crypto.randomUUID().length)
`,
    'cases/data.json': '{ "name": "fxterm" }\n',
    'cases/dyn.mjs': 'export const twice = (n) => n * 2\n',
    'cases/http.js': `require('http').createServer()\n`,
    'cases/fetch.mjs': `try { await fetch('https://example.com') } catch (e) { console.log(e.message + ': ' + e.cause.message) }\n`,
    'cases/ask.js': `const readline = require('readline')
const rl = readline.createInterface({ input: process.stdin })
const lines = []
rl.on('line', (line) => lines.push(line.toUpperCase()))
rl.on('close', () => console.log(lines.join('|')))
`,
  })
  const run = (command: string) => runCommand(page, `cd cases && ${command}`)

  const suite = await run('node --test suite.test.js')
  expect.soft(suite.stdout).toMatch(/▶ math\n {2}✔ adds \(.+\)\n {2}﹣ is skipped \(.+\) # SKIP\n {2}✔ deep equals/)
  expect.soft(suite.stdout).toContain('hooks before,each,after-each,each,after-each')
  expect.soft(suite.stdout).toMatch(/▶ subtests\n {2}✔ inner/)
  expect.soft(suite.stdout).toMatch(/﹣ skips itself \(.+\) # SKIP not today/)
  expect.soft(suite.stdout).toMatch(/ℹ tests 6\nℹ suites 1\nℹ pass 4\nℹ fail 0\nℹ cancelled 0\nℹ skipped 2/)
  expect.soft(suite.exitCode).toBe(0)

  expect.soft(await run('node timers.js')).toMatchObject({ stdout: 'ticks 3\nlater\nexit event 0\n', exitCode: 0 })
  expect.soft(await run('node exit-in-timer.js')).toMatchObject({ stdout: 'before exit\n', exitCode: 4 })

  const thrown = await run('node throws.js')
  expect.soft(thrown.exitCode).toBe(1)
  expect.soft(thrown.stderr).toContain('Error: boom')
  expect.soft(thrown.stderr).toContain('/workspace/cases/throws.js:2')
  expect.soft(thrown.stderr).toContain('Node.js v20')

  const rejected = await run('node reject.mjs')
  expect.soft(rejected.exitCode).toBe(1)
  expect.soft(rejected.stderr).toContain('TypeError: nobody caught me')

  expect.soft((await run('node leak.js && node check-leak.js')).stdout).toBe('string\nundefined\n')

  const fs = await run('node fs.js && cat made.txt')
  expect.soft(fs.stdout).toBe(
    "hello world true 11\ntrue true\nENOENT\nENOENT ENOENT: no such file or directory, open 'missing.txt'\npromise hello world\ncallback null hello world\nhello world",
  )

  expect.soft(await run('node meta.mjs')).toMatchObject({ stdout: 'hi fxterm\n/workspace/cases/meta.mjs 8 6678 36\n', exitCode: 0 })

  const http = await run('node http.js')
  expect.soft(http).toMatchObject({ stdout: '', exitCode: 1 })
  expect.soft(http.stderr).toBe("fxterm's node has no 'http' module: code here cannot reach the network\n")
  expect.soft(await run('node fetch.mjs')).toMatchObject({ stdout: "fetch failed: fxterm's node cannot reach the network: code here runs in a sandbox without it\n", exitCode: 0 })

  expect.soft(await run(`printf 'one\\ntwo\\n' | node ask.js`)).toMatchObject({ stdout: 'ONE|TWO\n', exitCode: 0 })
  expect.soft(await run(`node -p 'require("util").inspect({ a: [1, 2], m: new Map([["k", 1]]) })'`)).toMatchObject({ exitCode: 0, stdout: expect.stringContaining("{ a: [ 1, 2 ]") })
  expect.soft(await run(`echo 'console.log("from stdin")' | node`)).toMatchObject({ stdout: 'from stdin\n', exitCode: 0 })
  expect.soft(await run('node')).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('there is no REPL here') })
  expect.soft(await run('node --version')).toMatchObject({ stdout: 'v20.19.0\n', exitCode: 0 })
})
