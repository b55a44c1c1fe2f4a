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

describe('local echo when the engine lags', () => {
  test("a frame that has not seen the last keys is followed by their echo again, in order", () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.setBudget(10, 0)
    for (const key of ['a', 'b', 'c']) echo.keyTyped(key)
    out.push('[frame after a]')
    echo.setBudget(9, 1)
    expect(out).toEqual(['a', 'b', 'c', '[frame after a]', 'b', 'c'])
    out.length = 0
    echo.setBudget(7, 3) // a frame that has seen everything: nothing to redraw
    echo.keyTyped('d')
    expect(out).toEqual(['d'])
  })

  test('keys typed while nothing could be echoed are drawn once a frame allows it', () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.keyTyped('h') // before the engine's first frame, no budget
    echo.keyTyped('i')
    expect(out).toEqual([])
    echo.setBudget(20, 0) // the first frame has seen neither
    expect(out).toEqual(['h', 'i'])
  })

  test('a key that changes what typing means stops the redraw: the engine draws what follows it', () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.setBudget(10, 0)
    for (const key of ['a', '\r', 'b']) echo.keyTyped(key)
    expect(out).toEqual(['a'])
    out.length = 0
    echo.setBudget(10, 1) // has seen 'a', not Enter
    expect(out).toEqual([])
    echo.setBudget(10, 2) // has seen Enter: 'b' is new in a fresh composer
    expect(out).toEqual(['b'])
  })

  test('the redraw keeps to the budget of the frame it follows', () => {
    const out: string[] = []
    const echo = createLocalEcho((t) => out.push(t))
    echo.setBudget(5, 0)
    for (const key of ['a', 'b', 'c']) echo.keyTyped(key)
    out.length = 0
    echo.setBudget(1, 0)
    expect(out).toEqual(['a'])
  })
})
