import { expect, test } from 'vitest'
import { embedScope, embeddingOrigin } from './embed-scope.ts'

const self = 'https://fx.dev'
const random = () => 'r1'

test('an embed opened directly or framed by its own origin keeps its namespace as asked', () => {
  expect(embedScope('fxterm', { self, framed: false, referrer: '' }, random)).toEqual({ namespace: 'fxterm', embedder: self, persistent: true })
  expect(embedScope('fxterm', { self, framed: true, ancestorOrigins: [self], referrer: '' }, random)).toEqual({ namespace: 'fxterm', embedder: self, persistent: true })
  expect(embedScope('docs', { self, framed: true, referrer: `${self}/guide.html` }, random)).toEqual({ namespace: 'docs', embedder: self, persistent: true })
})

test('a page of another origin gets its own scope, whatever namespace it names', () => {
  expect(embedScope('fxterm', { self, framed: true, ancestorOrigins: ['http://localhost:9000'], referrer: '' }, random)).toEqual({
    namespace: 'http%3A%2F%2Flocalhost%3A9000@fxterm',
    embedder: 'http://localhost:9000',
    persistent: true,
  })
  // Firefox has no ancestorOrigins: the referrer's origin (a full URL or only the origin).
  expect(embedScope('fxterm', { self, framed: true, referrer: 'https://evil.example/page?x=1' }, random).namespace).toBe('https%3A%2F%2Fevil.example@fxterm')
  // The browser's ancestor record wins over a referrer (which only says who navigated the frame).
  expect(embeddingOrigin({ self, framed: true, ancestorOrigins: ['https://evil.example'], referrer: `${self}/` })).toBe('https://evil.example')
})

test('no namespace one origin can ask for names the main page or another origin', () => {
  const scoped = (origin: string, namespace: string) => embedScope(namespace, { self, framed: true, ancestorOrigins: [origin], referrer: '' }, random).namespace
  const tries = ['fxterm', '', '@fxterm', 'https%3A%2F%2Fb.example@fxterm', 'x@https%3A%2F%2Fb.example', 'fxterm-key']
  const fromA = tries.map((n) => scoped('https://a.example', n))
  const fromB = tries.map((n) => scoped('https://b.example', n))
  for (const name of [...fromA, ...fromB]) expect(['fxterm', 'fxterm-key', 'fxterm-embed']).not.toContain(name)
  for (const name of fromA) expect(fromB).not.toContain(name)
  for (const name of fromA) expect(name.split('@')[0]).toBe('https%3A%2F%2Fa.example')
})

test('a frame whose parent cannot be known shares nobody\'s scope and keeps nothing', () => {
  for (const view of [
    { self, framed: true, referrer: '' },
    { self, framed: true, ancestorOrigins: ['null'], referrer: `${self}/` },
    { self, framed: true, ancestorOrigins: [], referrer: 'about:blank' },
    { self, framed: true, referrer: 'not a url' },
  ]) {
    expect(embedScope('fxterm', view, random)).toEqual({ namespace: 'unknown-embedder-r1@fxterm', embedder: null, persistent: false })
  }
})

test('a page of this origin framed by another origin does not lend the embed its scope', () => {
  // embed ← fxterm's own example page ← a foreign top page: the foreign origin's scope; messages
  // still come from the parent.
  const view = { self, framed: true, ancestorOrigins: [self, 'https://evil.example'], referrer: `${self}/examples/iframe.html` }
  expect(embedScope('fxterm', view, random)).toEqual({ namespace: 'https%3A%2F%2Fevil.example@fxterm', embedder: self, persistent: true })
  expect(embedScope('fxterm', { ...view, ancestorOrigins: [self, 'null'] }, random)).toEqual({ namespace: 'unknown-embedder-r1@fxterm', embedder: self, persistent: false })
  expect(embedScope('fxterm', { ...view, ancestorOrigins: [self, self] }, random).namespace).toBe('fxterm')
})
