// A demo tape replays only over the files it was recorded with: the workspace is checked with a
// real just-bash, as the page's bash workspace runs the same commands.
import { readFileSync } from 'node:fs'
import { Bash } from 'just-bash'
import { describe, expect, test } from 'vitest'
import { DEMO_WORKSPACE_FILES } from '../../page/app/demo-workspace-files.ts'
import type { ModelEvent } from '../../shared/protocol/model-events.ts'
import { createDemoProvider } from './demo-provider.ts'
import { type DemoWorkspace, NO_WORKSPACE_REFUSAL, anotherProject, ensureTapeFiles } from './demo-files.ts'
import { parseDemoTape } from './demo-tape.ts'
import { collect } from '../../../test/support/providers.ts'

const TOUR = parseDemoTape(JSON.parse(readFileSync(new URL('../../../public/demos/tour.json', import.meta.url), 'utf8')))

/** A just-bash workspace at /workspace holding `files`, and every command run in it. */
function workspace(files: Record<string, string> = {}) {
  const bash = new Bash({ files: Object.fromEntries(Object.entries(files).map(([path, content]) => [`/workspace/${path}`, content])), cwd: '/workspace' })
  const ran: string[] = []
  const ws: DemoWorkspace = {
    async exec(command) {
      ran.push(command)
      const result = await bash.exec(command, { cwd: '/workspace' })
      return { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode }
    },
  }
  const read = async (path: string) => (await bash.exec(`cat ${path}`, { cwd: '/workspace' })).stdout
  return { ws, ran, read, bash }
}

const tourPrompt = (prompt: string) => ({ model: 'demo', messages: [{ role: 'user' as const, content: prompt }], tools: [] })
const text = (events: ModelEvent[]) => events.flatMap((e) => (e.type === 'text_delta' ? [e.delta] : [])).join('')
const commands = (events: ModelEvent[]) => events.filter((e) => e.type === 'tool_call_start').length

describe('the tour carries the files it was recorded with', () => {
  test('its files are the demo workspace the static page opens in', () => {
    expect(TOUR.files).toEqual(DEMO_WORKSPACE_FILES)
  })
})

describe('ensureTapeFiles', () => {
  test('an empty workspace gets every file, byte for byte, quotes, backticks and $ included', async () => {
    const { ws, read } = workspace()
    const outcome = await ensureTapeFiles(ws, DEMO_WORKSPACE_FILES)
    expect(outcome).toEqual({ added: Object.keys(DEMO_WORKSPACE_FILES) })
    for (const [path, content] of Object.entries(DEMO_WORKSPACE_FILES)) expect(await read(path), path).toBe(content)
  })

  test('the project edited (by the person or the tour itself): edits are kept, only missing files are added', async () => {
    const edited = { ...DEMO_WORKSPACE_FILES, 'README.md': 'Run the tests with `npm test`.\n' }
    delete (edited as Record<string, string>)['src/index.js']
    const { ws, read } = workspace(edited)
    expect(await ensureTapeFiles(ws, DEMO_WORKSPACE_FILES)).toEqual({ added: ['src/index.js'] })
    expect(await read('README.md')).toBe('Run the tests with `npm test`.\n')
    expect(await read('src/index.js')).toBe(DEMO_WORKSPACE_FILES['src/index.js'])
  })

  test('another project (no file as recorded, one of the same name): the tape refuses in one line and writes nothing', async () => {
    const { ws, read } = workspace({ 'README.md': '# hello\n' })
    const outcome = await ensureTapeFiles(ws, DEMO_WORKSPACE_FILES)
    expect(outcome).toEqual({ refused: anotherProject('README.md') })
    expect(anotherProject('README.md')).not.toContain('\n')
    expect(await read('README.md')).toBe('# hello\n')
    expect(await read('src/greet.js')).toBe('')
  })

  test('a workspace that has them all is not written to', async () => {
    const { ws, ran } = workspace(DEMO_WORKSPACE_FILES)
    expect(await ensureTapeFiles(ws, DEMO_WORKSPACE_FILES)).toEqual({ added: [] })
    // read only: one look at each file, no write
    expect(ran).toHaveLength(Object.keys(DEMO_WORKSPACE_FILES).length)
    expect(ran.some((command) => command.includes('printf'))).toBe(false)
  })

  test('no workspace: the tape refuses in one line', async () => {
    expect(await ensureTapeFiles(null, DEMO_WORKSPACE_FILES)).toEqual({ refused: NO_WORKSPACE_REFUSAL })
    expect(NO_WORKSPACE_REFUSAL).not.toContain('\n')
  })
})

describe('the demo provider over a workspace without the tour files', () => {
  test("the tour's first command finds its files, and the reply says in one line they were added", async () => {
    const { ws, bash } = workspace()
    const provider = createDemoProvider({ tape: TOUR, delayMs: 0, workspace: ws })
    const events = await collect(provider, tourPrompt("what's in this project?"))
    const said = text(events)
    const first = said.split('\n')[0]!
    expect(first).toMatch(/^\*Offline demo: this workspace did not have the files the demo was recorded with, so they were added \(README\.md, package\.json, src\/greet\.js and 2 more\)\.\*$/)
    expect(commands(events)).toBeGreaterThan(0)
    // what the tour's commands then read is there
    const cat = await bash.exec('cat README.md src/greet.js', { cwd: '/workspace' })
    expect(cat.exitCode).toBe(0)
    expect(cat.stderr).not.toContain('No such file')
  })

  test('over the demo workspace itself nothing is said and the recording plays as recorded', async () => {
    const { ws } = workspace(DEMO_WORKSPACE_FILES)
    const withCheck = await collect(createDemoProvider({ tape: TOUR, delayMs: 0, workspace: ws }), tourPrompt("what's in this project?"))
    const without = await collect(createDemoProvider({ tape: TOUR, delayMs: 0 }), tourPrompt("what's in this project?"))
    expect(text(withCheck)).toBe(text(without))
  })

  test('a page with no workspace: one line, and no command is replayed', async () => {
    const events = await collect(createDemoProvider({ tape: TOUR, delayMs: 0, workspace: null }), tourPrompt("what's in this project?"))
    expect(text(events)).toBe(NO_WORKSPACE_REFUSAL)
    expect(commands(events)).toBe(0)
  })
})
