import { test, vi } from 'vitest'
import { readFileSync } from 'node:fs'
import { createHostLoop } from '../../src/worker/host-loop.ts'
test('restart loop', async () => {
  const module = await WebAssembly.compile(readFileSync('public/engine.wasm'))
  const events: any[] = []
  let writes = ''
  const loop = await createHostLoop({ module, boot: { cols: 80, rows: 24, provider: 'fake', model: 'm', tools: true, cwd: '/workspace', notices: [], args: [] },
    provider: { label: 'fake', defaultModel: 'm', stream: async () => {} }, workspace: null,
    write: (b) => { writes += new TextDecoder().decode(b) }, onEvent: (e) => events.push(e), onExit: () => {}, now: () => 1e6 })
  loop.resize(2 ** 30, 24)
  for (let i = 0; i < 200 && events.filter(e => e.type === 'engine_trap').length < 5; i++) await new Promise(r => setImmediate(r))
  console.log(events.filter(e => e.type === 'engine_trap').length, JSON.stringify(events.slice(0, 3)))
  loop.dispose()
})
