import { test } from 'vitest'
import { createHarness } from './harness.ts'
test('dbg', async () => {
  for (const w of [17, 12]) {
  const h = await createHarness({ cols: 80, rows: 30 })
  const buf = h.term.buffer.active
  console.log('before', buf.cursorY, buf.baseY, buf.viewportY, buf.length)
  h.term.resize(w, 30)
  await new Promise<void>(r => h.term.write('', r))
  const lines: string[] = []
  for (let i = 0; i < buf.length; i++) lines.push(i + ':' + (buf.getLine(i)?.translateToString(true) ?? '') + (buf.getLine(i)?.isWrapped ? ' [w]' : ''))
  console.log(w, 'after xterm reflow cursorY', buf.cursorY, buf.baseY, buf.viewportY, buf.length, JSON.stringify(lines))
  }
})
