import { expect, test } from 'vitest'
import { acceptsMessage, allowedOrigins, readEmbedMessage, refusalOf } from './embed-messages.ts'

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

const parent = { name: 'parent' }
const self = { name: 'self' }
const gate = { parent, self, allowed: ['https://docs.example', 'https://other.example'], embedder: 'https://docs.example' }

test('a message drives the embed only from the parent window, from the embedding origin, on the list', () => {
  expect(acceptsMessage({ source: parent, origin: 'https://docs.example' }, gate)).toBe(true)
  // A sibling frame, a popup or the embed itself, even of the right origin.
  expect(acceptsMessage({ source: { name: 'sibling' }, origin: 'https://docs.example' }, gate)).toBe(false)
  expect(acceptsMessage({ source: self, origin: 'https://docs.example' }, gate)).toBe(false)
  expect(acceptsMessage({ source: null, origin: 'https://docs.example' }, gate)).toBe(false)
  // On the list, but not the page that embeds this frame (a spoofed `origins=`).
  expect(acceptsMessage({ source: parent, origin: 'https://other.example' }, gate)).toBe(false)
  // The embedder, but not on the list.
  expect(acceptsMessage({ source: parent, origin: 'https://docs.example' }, { ...gate, allowed: ['https://other.example'] })).toBe(false)
  // An embedder that cannot be known, or no parent at all (the top-level page).
  expect(acceptsMessage({ source: parent, origin: 'https://docs.example' }, { ...gate, embedder: null })).toBe(false)
  expect(acceptsMessage({ source: self, origin: 'https://docs.example' }, { ...gate, parent: self })).toBe(false)
})

test('a run or type whose text starts with a slash is refused with a reason; others go', () => {
  const reason = 'Slash commands are not taken from the embedding page: type them in the terminal.'
  for (const text of ['/provider add evil https://bait/v1', '/key openai', '/login', '/model gpt-x', '  /settings', '\n/theme light', '\t/new']) {
    expect(refusalOf({ type: 'run', text })).toBe(reason)
    expect(refusalOf({ type: 'type', text })).toBe(reason)
  }
  for (const text of ['explain /etc/hosts', 'ls\n/provider', 'a/b', '']) expect(refusalOf({ type: 'run', text })).toBeNull()
  expect(refusalOf({ type: 'reset' })).toBeNull()
})
