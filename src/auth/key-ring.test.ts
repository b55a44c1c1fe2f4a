import { describe, expect, test } from 'vitest'
import { memoryOAuthSessionStore } from '../stores/memory-stores.ts'
import { createKeyRing, createKeyStore } from './key-store.ts'

describe('the key ring', () => {
  test('keeps one key per provider, and clearing one leaves the others', async () => {
    const store = memoryOAuthSessionStore()
    const ring = createKeyRing(store)
    await ring.save('openai', 'sk-openai')
    await ring.save('anthropic', 'sk-ant')
    await ring.save('openai', 'sk-openai-2')
    expect([await ring.load('openai'), await ring.load('anthropic'), await ring.load('groq')]).toEqual(['sk-openai-2', 'sk-ant', undefined])
    expect(await ring.clear('openai')).toBe(true)
    expect(await ring.clear('openai')).toBe(false)
    expect(await ring.names()).toEqual(['anthropic'])
    expect(new TextDecoder().decode((await store.load())!.bytes)).toEqual('{"v":2,"keys":{"anthropic":"sk-ant"}}')
  })

  test('a record from before keys were per provider is AI Gateway’s key', async () => {
    const store = memoryOAuthSessionStore()
    await store.commit(new TextEncoder().encode('{"v":1,"key":"vck_old"}'), undefined)
    expect(await createKeyStore(store).load()).toEqual('vck_old')
    expect(await createKeyRing(store).names()).toEqual(['ai-gateway'])
  })

  test('two tabs saving keys for different providers keep both', async () => {
    const store = memoryOAuthSessionStore()
    const first = createKeyRing(store)
    const second = createKeyRing(store)
    await first.load('openai')
    await second.save('mistral', 'sk-mistral')
    await first.save('openai', 'sk-openai')
    expect(await createKeyRing(store).names()).toEqual(['mistral', 'openai'])
  })
})
