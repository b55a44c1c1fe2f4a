import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startGitRemoteFixture, type GitRemoteFixture } from '../../../test/support/git-remote-fixture'
import type { PushPlan } from '../../shared/workspace/git/git-host'
import { useFakeClock } from '../../../test/support/clock'
import { disposeOpened, execInput, openWorkspace } from '../../../test/support/workspaces'

let remote: GitRemoteFixture
beforeEach(async () => {
  remote = await startGitRemoteFixture()
})
afterEach(async () => {
  disposeOpened()
  vi.useRealTimers()
  await remote.close()
})

type Question = { plan: PushPlan; signal: AbortSignal | undefined; answer(yes: boolean): void }

/**
 * A workspace with a clone holding one new commit, whose push questions wait for the test to
 * answer (as the dialog does, a stopped command's signal answers no).
 */
async function withUnpushedCommit() {
  const url = remote.repo('slow', 'echo one > a.txt && git add . && git commit -qm one')
  let asked!: (question: Question) => void
  const question = new Promise<Question>((resolve) => (asked = resolve))
  const approvePush = (plan: PushPlan, signal?: AbortSignal) =>
    new Promise<boolean>((answer) => {
      signal?.addEventListener('abort', () => answer(false), { once: true })
      asked({ plan, signal, answer })
    })
  const { workspace, created } = openWorkspace({ git: { approvePush } })
  const commit = `git clone -q ${url} && cd slow && echo two > a.txt && git -c user.name=A -c user.email=a@example.com commit -qam two`
  expect((await workspace.exec(execInput(commit))).exitCode).toBe(0)
  const remoteMain = () => remote.sh('git -C slow.git log --format=%s main').trim()
  return { workspace, created, question, remoteMain }
}

describe('the push question and the command time limit', () => {
  it('a person who answers after a minute still pushes: the wait does not count against the 30 s', async () => {
    const { workspace, created, question, remoteMain } = await withUnpushedCommit()
    useFakeClock()
    const pushing = workspace.exec(execInput('cd slow && git push'))
    const asked = await question // the clock stands still until the question is open
    expect(asked.plan.commits.map((c) => c.subject)).toEqual(['two'])
    // A minute on both clocks (the worker's and the page's watchdog): the question stops them.
    await vi.advanceTimersByTimeAsync(60_000)
    expect(created.map((worker) => worker.terminated)).toEqual([false])
    // The push itself talks to a real server: on the fake clock, a slow machine would move the
    // clock past the deadline while the bytes travel. The question was the part under test.
    vi.useRealTimers()
    asked.answer(true)
    const result = await pushing
    expect(result).toMatchObject({ exitCode: 0, stderr: expect.stringContaining('main -> main') })
    expect(remoteMain()).toBe('two\none')
    expect(created.map((worker) => worker.terminated)).toEqual([false])
  })

  it('stopping the command (Esc, Ctrl+C) while the question is open closes it as a no', async () => {
    const { workspace, question, remoteMain } = await withUnpushedCommit()
    const controller = new AbortController()
    const pushing = workspace.exec(execInput('cd slow && git push', { signal: controller.signal }))
    const asked = await question
    expect(asked.signal?.aborted).toBe(false)
    controller.abort()
    expect(asked.signal?.aborted).toBe(true)
    expect((await pushing).exitCode).toBe(130)
    expect(remoteMain()).toBe('one')
  })
})
