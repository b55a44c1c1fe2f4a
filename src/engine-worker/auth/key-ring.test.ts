import { describe, expect, test } from 'vitest'
import { memoryOAuthSessionStore } from '../../page/stores/memory-stores.ts'
import { keyMayGoTo, originOf } from '../providers/key-origin.ts'
import { createKeyRing, createKeyStore } from './key-store.ts'

const OPENAI = 'https://api.openai.com/v1'
const text = async (store: ReturnType<typeof memoryOAuthSessionStore>) => new TextDecoder().decode((await store.load())!.bytes)

describe('the key ring', () => {
  test('keeps one key per provider, and clearing one leaves the others', async () => {
    const store = memoryOAuthSessionStore()
    const ring = createKeyRing(store)
    await ring.save('openai', 'sk-openai', OPENAI)
    await ring.save('anthropic', 'sk-ant', 'https://api.anthropic.com/v1')
    await ring.save('openai', 'sk-openai-2', OPENAI)
    expect([
      await ring.load('openai', `${OPENAI}/chat/completions`),
      await ring.load('anthropic', 'https://api.anthropic.com/v1/messages'),
      await ring.load('groq', 'https://api.groq.com/openai/v1/models'),
    ]).toEqual(['sk-openai-2', 'sk-ant', undefined])
    expect(await ring.clear('openai')).toBe(true)
    expect(await ring.clear('openai')).toBe(false)
    expect(await ring.names()).toEqual(['anthropic'])
    expect(await text(store)).toEqual('{"v":3,"keys":{"anthropic":{"key":"sk-ant","origin":"https://api.anthropic.com"}}}')
  })

  test('a key is given only for a request to the exact origin it was saved for', async () => {
    const ring = createKeyRing(memoryOAuthSessionStore())
    await ring.save('openai', 'sk-openai', OPENAI)
    const attempts = [
      'https://openai/v1/chat/completions',
      'https://api.openai.com.evil.test/v1/models',
      'http://api.openai.com/v1/models',
      'https://api.openai.com:8443/v1/models',
      'https://api.openai.com@other.test/v1/models',
      'https://user:pass@api.openai.com/v1/models',
      'ftp://api.openai.com/v1',
      'not a url',
    ]
    const given = await Promise.all(attempts.map((url) => ring.load('openai', url)))
    expect(given).toEqual(attempts.map(() => undefined))
    // The same origin spelled differently is the same place.
    expect(await ring.load('openai', 'HTTPS://API.OPENAI.COM:443/v1/models')).toEqual('sk-openai')
  })

  test('a key cannot be saved without an https address to bind it to', async () => {
    const ring = createKeyRing(memoryOAuthSessionStore())
    await expect(ring.save('mystery', 'sk-x', '')).rejects.toThrow('mystery has no https address to bind its key to')
    expect(await ring.names()).toEqual([])
  })

  test('a record from before keys were per provider is AI Gateway’s key, bound to its origin', async () => {
    const store = memoryOAuthSessionStore()
    await store.commit(new TextEncoder().encode('{"v":1,"key":"vck_old"}'), undefined)
    expect(await createKeyStore(store).load()).toEqual('vck_old')
    const ring = createKeyRing(store, { legacyOrigin: (name) => (name === 'ai-gateway' ? 'https://ai-gateway.vercel.sh/v1' : undefined) })
    expect(await ring.load('ai-gateway', 'https://gateway.evil.test/v1/models')).toBeUndefined()
    expect(await createKeyRing(store).names()).toEqual(['ai-gateway'])
  })

  test('keys saved before origins are bound by name to a known provider, and others are sent nowhere', async () => {
    const store = memoryOAuthSessionStore()
    await store.commit(new TextEncoder().encode('{"v":2,"keys":{"openai":"sk-old","mystery":"sk-mystery"}}'), undefined)
    const ring = createKeyRing(store, { legacyOrigin: (name) => (name === 'openai' ? OPENAI : undefined) })
    expect(await ring.load('openai', `${OPENAI}/models`)).toEqual('sk-old')
    expect(await ring.load('openai', 'https://openai/v1/models')).toBeUndefined()
    expect(await ring.load('mystery', 'https://mystery/v1/models')).toBeUndefined()
    // Kept (not lost) and bound once the ring writes again.
    await ring.save('groq', 'gsk_new', 'https://api.groq.com/openai/v1')
    expect(JSON.parse(await text(store))).toEqual({
      v: 3,
      keys: { openai: { key: 'sk-old', origin: 'https://api.openai.com' }, mystery: { key: 'sk-mystery' }, groq: { key: 'gsk_new', origin: 'https://api.groq.com' } },
    })
  })

  test('two tabs saving keys for different providers keep both', async () => {
    const store = memoryOAuthSessionStore()
    const first = createKeyRing(store)
    const second = createKeyRing(store)
    await first.load('openai', OPENAI)
    await second.save('mistral', 'sk-mistral', 'https://api.mistral.ai/v1')
    await first.save('openai', 'sk-openai', OPENAI)
    expect(await createKeyRing(store).names()).toEqual(['mistral', 'openai'])
  })
})

describe('key origins', () => {
  test('an origin is scheme, host and port; look-alikes are other origins', () => {
    expect([originOf('https://api.openai.com/v1'), originOf('https://api.openai.com@other/'), originOf('javascript:alert(1)')]).toEqual(['https://api.openai.com', undefined, undefined])
    expect([keyMayGoTo('https://api.openai.com', 'https://api.openai.com/v1/models'), keyMayGoTo(undefined, 'https://api.openai.com/v1'), keyMayGoTo('https://localhost:1234', 'http://localhost:1234/v1')]).toEqual([true, false, false])
  })
})
