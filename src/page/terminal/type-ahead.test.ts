import { describe, expect, test } from 'vitest'
import xtermHeadless from '@xterm/headless'
import { startTypeAhead } from './type-ahead.ts'
import { createLocalEcho } from './local-echo.ts'

const { Terminal: Headless } = xtermHeadless

/** The engine's first frame at 30×8 as it draws it: two blank rows, divider, composer, divider, status. */
const ENGINE_FRAME =
  '\x1b[?2004h\r\x1b[J\r\n\r\n\x1b[90m' + '─'.repeat(30) + '\x1b[0m\r\n\x1b[1m❯ \x1b[0m\r\n\x1b[90m' + '─'.repeat(30) + '\x1b[0m\r\n\x1b[90m  auto · demo\x1b[0m\x1b[2A\x1b[3G'

function memoryStorage(): Storage {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  } as Storage
}

async function screenOf(term: InstanceType<typeof Headless>): Promise<string[]> {
  await new Promise<void>((resolve) => term.write('', resolve))
  const buffer = term.buffer.active
  return Array.from({ length: buffer.length }, (_, i) => buffer.getLine(i)?.translateToString(true).trimEnd() ?? '')
}

/** A fresh terminal, type-ahead started on it, and keys typed through the page's local echo. */
function openTerminal(storage: Storage | null) {
  const term = new Headless({ cols: 30, rows: 8, allowProposedApi: true })
  const typeAhead = startTypeAhead({ cols: 30, rows: 8, namespace: 't', storage, write: (text) => term.write(text) })
  const echo = createLocalEcho((text) => term.write(text))
  echo.setBudget(typeAhead.echoColumns)
  const type = (text: string) => {
    for (const key of text) {
      typeAhead.keyTyped()
      echo.keyTyped(key)
    }
  }
  return { term, typeAhead, type }
}

describe('type-ahead', () => {
  test('before the engine: a bare prompt that shows what is typed', async () => {
    const { term, type } = openTerminal(memoryStorage())
    type('hello')
    expect((await screenOf(term))[0]).toBe('❯ hello')
  })

  test("the engine's first frame replaces the provisional one: the screen is as if the engine had drawn it alone", async () => {
    const { term, typeAhead, type } = openTerminal(memoryStorage())
    type('hello')
    const frame = new TextEncoder().encode(ENGINE_FRAME)
    term.write(typeAhead.takeOver(frame))
    term.write(frame)
    const alone = new Headless({ cols: 30, rows: 8, allowProposedApi: true })
    alone.write(frame)
    expect(await screenOf(term)).toEqual(await screenOf(alone))
    expect(term.buffer.active.cursorY).toBe(alone.buffer.active.cursorY)
    expect(term.buffer.active.cursorX).toBe(alone.buffer.active.cursorX)
  })

  test('the next visit starts from the last clean first frame, cursor in its composer', async () => {
    const storage = memoryStorage()
    const first = openTerminal(storage)
    first.typeAhead.takeOver(new TextEncoder().encode(ENGINE_FRAME))
    const second = openTerminal(storage)
    second.type('ls')
    const screen = await screenOf(second.term)
    expect(screen.slice(0, 6)).toEqual(['', '', '─'.repeat(30), '❯ ls', '─'.repeat(30), '  auto · demo'])
  })

  test('a first frame that followed typing, or showed stored state, or was drawn at another size, is not reused', async () => {
    const storage = memoryStorage()
    const resumed = openTerminal(storage)
    resumed.typeAhead.bootsWithStoredState()
    resumed.typeAhead.takeOver(new TextEncoder().encode('an old transcript\r\n' + ENGINE_FRAME))
    expect((await screenOf(openTerminal(storage).term))[0]).toBe('❯')
    const typed = openTerminal(storage)
    typed.type('x')
    typed.typeAhead.takeOver(new TextEncoder().encode(ENGINE_FRAME + 'x'))
    expect((await screenOf(openTerminal(storage).term))[0]).toBe('❯')
    openTerminal(storage).typeAhead.takeOver(new TextEncoder().encode(ENGINE_FRAME))
    const wider = new Headless({ cols: 40, rows: 8, allowProposedApi: true })
    startTypeAhead({ cols: 40, rows: 8, namespace: 't', storage, write: (text) => wider.write(text) })
    expect((await screenOf(wider))[0]).toBe('❯')
  })

  test('storage that throws or holds garbage leaves the bare prompt and loses nothing', async () => {
    const broken = { getItem: () => { throw new Error('SecurityError') }, setItem: () => { throw new Error('QuotaExceededError') } } as unknown as Storage
    const { term, typeAhead, type } = openTerminal(broken)
    type('ok')
    expect(typeAhead.takeOver(new TextEncoder().encode(ENGINE_FRAME))).toContain('\x1b[2J')
    expect((await screenOf(term))[0]).toBe('❯ ok')
    const garbage = memoryStorage()
    garbage.setItem('fxterm:t:first-frame', '{"cols":30,"rows":8,"frame":7')
    expect((await screenOf(openTerminal(garbage).term))[0]).toBe('❯')
  })

  test('an echo never wraps: the last column stays free', async () => {
    const { term, type } = openTerminal(null)
    type('y'.repeat(40))
    const screen = await screenOf(term)
    expect(screen[0]).toBe('❯ ' + 'y'.repeat(27))
    expect(screen[1]).toBe('')
  })
})
