import { describe, expect, test } from 'vitest'
import { createHookBatcher } from './hook-batcher.ts'

const tick = () => new Promise<void>((resolve) => queueMicrotask(resolve))

describe('the hook batcher', () => {
  test('the calls of one microtask run go out together, in order, once it ends', async () => {
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls))
    batcher.push('text')
    batcher.push('usage')
    batcher.push('turn_end')
    expect(posts).toEqual([])
    await tick()
    batcher.push('next turn_start')
    await tick()
    expect(posts).toEqual([['text', 'usage', 'turn_end'], ['next turn_start']])
  })

  test('held calls are not posted: take() hands them over in order, and posting resumes', async () => {
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls))
    batcher.hold()
    batcher.push('turn_resume')
    batcher.push('text')
    await tick()
    await tick()
    expect(posts).toEqual([])
    expect(batcher.take()).toEqual(['turn_resume', 'text'])
    batcher.push('turn_end')
    await tick()
    expect(posts).toEqual([['turn_end']])
  })

  test('close drops what is queued', async () => {
    const posts: string[][] = []
    const batcher = createHookBatcher<string>((calls) => posts.push(calls))
    batcher.push('text')
    batcher.close()
    await tick()
    expect(posts).toEqual([])
  })
})
