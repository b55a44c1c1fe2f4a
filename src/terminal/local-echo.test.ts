import { describe, expect, test } from 'vitest'
import { createLocalEcho } from './local-echo.ts'

describe('local echo', () => {
  test('printable ASCII keys are echoed while the budget lasts, then no more', () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.setBudget(2)
    for (const key of ['a', 'b', 'c']) echo.keyTyped(key)
    expect(out).toEqual(['a', 'b'])
  })

  test('nothing is echoed before the engine allows it, nor control keys, escapes, pastes or non-ASCII', () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.keyTyped('a')
    echo.setBudget(10)
    for (const key of ['\r', '\x7f', '\x1b[A', 'pasted text', 'é', '\x03']) echo.keyTyped(key)
    expect(out).toEqual([])
  })

  test('a new answer from the engine replaces the budget', () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.setBudget(1)
    echo.keyTyped('x')
    echo.setBudget(0)
    echo.keyTyped('y')
    expect(out).toEqual(['x'])
  })

  test('Enter ends the echo until the engine answers again (the next keys may be a masked key)', () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.setBudget(10)
    echo.keyTyped('a')
    echo.keyTyped('\r')
    echo.keyTyped('s')
    expect(out).toEqual(['a'])
  })
})
