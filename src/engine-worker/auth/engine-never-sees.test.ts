/**
 * "The engine never receives a token or a key", checked where it would be: the real engine.wasm
 * in the real host loop, signed in at the mock issuer, a key typed with /key, a turn at the mock
 * model server with a token refresh, then a sign-out; afterwards no secret is in the engine's
 * linear memory (UTF-8 or UTF-16), in any byte written to the terminal, or in any event.
 */
import { screenOf, until } from '../../../test/support/auth-screen.ts'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import xtermHeadless from '@xterm/headless'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startMockModelServer, type MockModelServer } from '../../../mock-servers/mock-model-server.mjs'
import { memoryOAuthSessionStore } from '../../page/stores/memory-stores.ts'
import { createHostLoop } from '../host/host-loop.ts'
import { createAccountCredentials } from './account-credentials.ts'
import { createAccountProvider } from './account-provider.ts'
import { createAuthController } from './auth-controller.ts'
import { createCredentialStore } from './credential-store.ts'
import { createKeyStore } from './key-store.ts'
import { createWithLock } from './web-lock.ts'
import { useMockIssuer } from '../../../test/support/auth-issuer.ts'

const { Terminal } = xtermHeadless
const issuer = useMockIssuer()
let model: MockModelServer
let module: WebAssembly.Module
beforeAll(async () => {
  model = await startMockModelServer()
  module = await WebAssembly.compile(readFileSync(fileURLToPath(new URL('../../../public/engine.wasm', import.meta.url))))
})
afterAll(() => model.close())

const KEY = 'vck_memcheck_0f1e2d3c4b5a69788796'

/** Whether `memory` holds `text` as UTF-8 or as UTF-16LE (AssemblyScript strings). */
function holds(memory: Uint8Array, text: string): boolean {
  const utf8 = Buffer.from(text, 'utf8')
  const utf16 = Buffer.from(text, 'utf16le')
  const all = Buffer.from(memory.buffer, memory.byteOffset, memory.byteLength)
  return all.includes(utf8) || all.includes(utf16)
}

describe('the engine never sees a credential', () => {
  it('after sign-in, /key, a turn with a refresh and a sign-out, no secret is in its memory, its output or its events', async () => {
    await issuer.get().script({ accessTtls: [30, 3600] })
    await fetch(`${model.url}/__reset`, { method: 'POST' })
    await fetch(`${model.url}/__script`, { method: 'POST', body: JSON.stringify([{ text: 'A reply for the memory check.' }]) })
    const memories: WebAssembly.Memory[] = []
    const instantiate = WebAssembly.instantiate.bind(WebAssembly) as (m: WebAssembly.Module, i: WebAssembly.Imports) => Promise<WebAssembly.Instance>
    vi.spyOn(WebAssembly, 'instantiate').mockImplementation((async (m: WebAssembly.Module, imports: WebAssembly.Imports) => {
      const instance = await instantiate(m, imports)
      memories.push(instance.exports['memory'] as WebAssembly.Memory)
      return instance
    }) as typeof WebAssembly.instantiate)

    const keyStore = memoryOAuthSessionStore()
    const credentials = createAccountCredentials({ store: createCredentialStore(memoryOAuthSessionStore()), keys: createKeyStore(keyStore), fetch, now: Date.now, withLock: createWithLock(undefined), lockName: 'l' })
    const { provider } = createAccountProvider({ credentials, modelBaseUrl: `${model.url}/v1`, fetch: () => fetch })
    const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true, scrollback: 1000 })
    const written: Uint8Array[] = []
    const events: unknown[] = []
    let show: (state: Parameters<typeof loop.authState>[0]) => void = () => {}
    const controller = createAuthController({
      signIn: { issuer: issuer.get().issuer, clientId: 'fxterm-test' },
      credentials,
      keys: createKeyStore(keyStore),
      fetch: () => fetch,
      openUrl: async () => false,
      show: (state) => show(state),
      notice: () => {},
      onSignedOut: () => {},
      sleep: async () => {},
    })
    const loop = await createHostLoop({
      module,
      boot: { cols: 100, rows: 30, provider: 'demo', providers: [{ name: 'demo', label: 'demo', model: 'demo' }, { name: 'ai-gateway', label: 'ai-gateway', model: 'anthropic/claude-sonnet-4.5' }], model: 'demo', tools: false, cwd: '/', notices: [], args: [], account: 'ai-gateway' },
      providers: [provider],
      workspace: null,
      write: (bytes) => {
        written.push(bytes.slice())
        term.write(bytes)
      },
      onEvent: (event) => events.push(event),
      onExit: () => {},
      onAuth: (action) => controller.handle(action),
    })
    show = (state) => loop.authState(state)
    const type = (text: string) => {
      if (!controller.captureKeys(text)) loop.keys(new TextEncoder().encode(text))
    }

    type('/login\r')
    await until(term, () => screenOf(term).includes('✓ Signed in.'))
    type('/key\r')
    type(KEY)
    type('\r')
    await until(term, () => screenOf(term).includes('✓ Key for ai-gateway saved'))
    type('hello\r')
    await until(term, () => screenOf(term).includes('A reply for the memory check.'))
    type('/logout\r')
    await until(term, () => screenOf(term).includes('Signed out.'))
    loop.dispose()

    const tokens = await issuer.get().tokens()
    expect(tokens.access).toHaveLength(2) // the turn refreshed the first token
    const hits = (await (await fetch(`${model.url}/__hits`)).json()) as Array<{ method: string; authorization: string | null }>
    expect(hits.filter((hit) => hit.method === 'POST').map((hit) => hit.authorization)).toEqual([`Bearer ${tokens.access[1]}`])
    const secrets = [...tokens.access, ...tokens.refresh, KEY]
    const output = Buffer.concat(written).toString('utf8')
    const found = secrets.flatMap((secret) => [
      ...memories.filter((memory) => holds(new Uint8Array(memory.buffer), secret)).map(() => `engine memory: ${secret.slice(0, 8)}`),
      ...(output.includes(secret) ? [`terminal bytes: ${secret.slice(0, 8)}`] : []),
      ...(JSON.stringify(events).includes(secret) ? [`events: ${secret.slice(0, 8)}`] : []),
    ])
    expect(memories.length).toBeGreaterThan(0)
    expect(found).toEqual([])
    // The scan would have found them: the reply and the prompt are in the engine's memory.
    expect(holds(new Uint8Array(memories[0]!.buffer), 'A reply for the memory check.')).toBe(true)
  })
})
