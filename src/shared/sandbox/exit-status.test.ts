import { describe, expect, it } from 'vitest'
import { exitStatus } from './exit-status'

describe('an exit code becomes the status a shell sees', () => {
  it('as one byte, the way Node and CPython exit', () => {
    expect([0, 1, 5, 255, 256, 300, -1, -255, 2 ** 31 + 3].map(exitStatus)).toEqual([0, 1, 5, 255, 0, 44, 255, 1, 3])
  })

  it('and a code that is not an integer is a failure, not success', () => {
    expect([Number.NaN, 1.5, Infinity].map(exitStatus)).toEqual([1, 1, 1])
  })
})
