import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WorkspaceInfo } from '../../shared/protocol/workspace'
import { agentsPaths, readAgentsInstructions } from './agents-instructions'
import { createBashWorkerApi } from '../../bash-worker/worker-api'
import type { BashWorkerApi } from '../../shared/messages/bash-worker-api'
import { disposeOpened, execInput as input, openWorkspace as open } from '../../../test/support/workspaces'
import { utf8ByteLength } from '../../shared/workspace/truncate-output'

afterEach(() => {
  vi.useRealTimers()
  disposeOpened()
})

const info = (root: string, home: string): WorkspaceInfo => ({
  version: 1,
  root,
  cwd: root,
  home,
  gitAvailable: false,
  ephemeral: true,
})

/** A worker API whose readFile never answers. */
function apiWithStuckRead(): BashWorkerApi {
  return { ...createBashWorkerApi(), readFile: () => new Promise(() => {}) }
}

describe('readFile', () => {
  it('answers null after 10 s when the worker never replies, even for a file that exists', async () => {
    const { workspace } = open({ files: { 'a.txt': 'A' } }, apiWithStuckRead)
    await workspace.exec(input('true')) // the worker is up, so the read goes to it
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const read = workspace.readFile({ path: 'a.txt' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(await read).toBe(null)
  })

  it('answers null as soon as its signal aborts', async () => {
    const { workspace } = open({ files: { 'a.txt': 'A' } }, apiWithStuckRead)
    await workspace.exec(input('true'))
    const controller = new AbortController()
    const read = workspace.readFile({ path: 'a.txt', signal: controller.signal })
    controller.abort()
    expect(await read).toBe(null)
  })

  it('reads seed files without starting the worker, and null for missing ones', async () => {
    const { workspace, created } = open({ files: { 'AGENTS.md': '# rules\n' } })
    expect([await workspace.readFile({ path: 'AGENTS.md' }), await workspace.readFile({ path: 'none' })]).toEqual([
      '# rules\n',
      null,
    ])
    expect(created.length).toBe(0)
  })
})

describe('readAgentsInstructions', () => {
  it("joins the user's and the project's AGENTS.md under a header each, the user's first", async () => {
    const { workspace } = open({
      files: { '/home/user/.fx/AGENTS.md': 'Answer briefly.', 'AGENTS.md': 'Run the tests.\n' },
    })
    expect(await readAgentsInstructions(workspace)).toEqual({
      text:
        '# AGENTS.md from /home/user/.fx/AGENTS.md\nAnswer briefly.\n\n' +
        '# AGENTS.md from /workspace/AGENTS.md\nRun the tests.\n',
      sources: ['/home/user/.fx/AGENTS.md', '/workspace/AGENTS.md'],
      omittedBytes: 0,
    })
  })

  it('gives empty text and no sources when there is no AGENTS.md', async () => {
    const { workspace } = open()
    expect(await readAgentsInstructions(workspace)).toEqual({ text: '', sources: [], omittedBytes: 0 })
  })

  it('cuts at 64 KiB before a character that would not fit whole and counts what it cut', async () => {
    // The header takes 38 bytes and the a's the next 65,496, so the emoji would end 2 bytes past 64 KiB.
    const body = `${'a'.repeat(65_496)}😀${'b'.repeat(100)}\n`
    const { workspace } = open({ files: { 'AGENTS.md': body } })
    const result = await readAgentsInstructions(workspace)
    expect(result).toEqual({
      text: `# AGENTS.md from /workspace/AGENTS.md\n${'a'.repeat(65_496)}`,
      sources: ['/workspace/AGENTS.md'],
      omittedBytes: 105,
    })
    expect(utf8ByteLength(result.text)).toBe(65_534)
  })

  it('reads nothing more once its signal has aborted', async () => {
    const { workspace } = open({ files: { 'AGENTS.md': 'x' } })
    expect(await readAgentsInstructions(workspace, AbortSignal.abort())).toEqual({ text: '', sources: [], omittedBytes: 0 })
  })

  it('looks in every directory from the root down to a home inside it', () => {
    expect([
      agentsPaths(info('/workspace', '/home/user')),
      agentsPaths(info('/', '/home/user')),
      agentsPaths(info('/workspace', '/workspace/me')),
      agentsPaths(info('/workspace', '/workspace')),
    ]).toEqual([
      ['/home/user/.fx/AGENTS.md', '/workspace/AGENTS.md'],
      ['/home/user/.fx/AGENTS.md', '/AGENTS.md', '/home/AGENTS.md', '/home/user/AGENTS.md'],
      ['/workspace/me/.fx/AGENTS.md', '/workspace/AGENTS.md', '/workspace/me/AGENTS.md'],
      ['/workspace/.fx/AGENTS.md', '/workspace/AGENTS.md'],
    ])
  })
})
