import { expect, test } from 'vitest'
import { allowedOrigins, readEmbedMessage } from './embed-messages.ts'

test('the allow-list takes exact http(s) origins and self, nothing looser', () => {
  expect(allowedOrigins(null, 'https://fx.dev')).toEqual(['https://fx.dev'])
  expect(allowedOrigins('self, https://docs.example.com, https://a.b:8443/', 'https://fx.dev')).toEqual(['https://fx.dev', 'https://docs.example.com', 'https://a.b:8443'])
  expect(allowedOrigins('*, null, https://x.com/path, javascript:alert(1), file:///', 'https://fx.dev')).toEqual([])
})

test('messages: run, type and reset only; text without control keys', () => {
  expect(readEmbedMessage({ fxterm: 1, type: 'run', text: 'ls\n-la' })).toEqual({ type: 'run', text: 'ls\n-la' })
  expect(readEmbedMessage({ fxterm: 1, type: 'type', text: 'a\u0003b\u001b[2J' })).toEqual({ type: 'type', text: 'ab[2J' })
  expect(readEmbedMessage({ fxterm: 1, type: 'reset' })).toEqual({ type: 'reset' })
  for (const bad of [null, 'run', { type: 'run', text: 'x' }, { fxterm: 1, type: 'exec', text: 'rm' }, { fxterm: 1, type: 'run', text: 3 }]) {
    expect(readEmbedMessage(bad)).toBeNull()
  }
})
