/**
 * A trapped engine is replaced by a fresh one that knows nothing of the sign-in (it never held
 * any of it): the host loop says so through onRestarted, and the host tells it the credential
 * again, so /status and the fallback to the demo on sign-out keep working.
 */
import { screenOf, until } from '../../../test/support/auth-screen.ts'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import xtermHeadless from '@xterm/headless'
import { afterEach, expect, it, vi } from 'vitest'
import { createHostLoop, type HostLoop } from '../host/host-loop.ts'
import { trappableEngines } from '../../../test/support/engine-traps.ts'

const { Terminal } = xtermHeadless

afterEach(() => vi.restoreAllMocks())

it('after an engine restart the host tells the new engine the credential again', async () => {
  const module = await WebAssembly.compile(readFileSync(fileURLToPath(new URL('../../../public/engine.wasm', import.meta.url))))
  const traps = trappableEngines()
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true, scrollback: 1000 })
  let restarted = 0
  let loop: HostLoop | undefined
  loop = await createHostLoop({
    module,
    boot: { cols: 100, rows: 30, provider: 'demo', providers: [{ name: 'demo', label: 'demo', model: 'demo' }], model: 'demo', tools: false, cwd: '/', notices: [], args: [], account: 'ai-gateway' },
    providers: [],
    workspace: null,
    write: (bytes) => term.write(bytes),
    onEvent: () => {},
    onExit: () => {},
    onRestarted: () => {
      restarted++
      loop?.authState({ state: 'credential', credential: 'signed_in' })
    },
  })
  loop.authState({ state: 'credential', credential: 'signed_in' })
  traps.trapNext()
  loop.keys(new Uint8Array(0))
  await until(term, () => restarted === 1 && screenOf(term).includes('The engine restarted after an internal error'))
  loop.keys(new TextEncoder().encode('/status\r'))
  await until(term, () => screenOf(term).includes('sign-in    signed in'))
  loop.dispose()
})
