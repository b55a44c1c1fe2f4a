import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { BOOTSTRAP, BOOTSTRAP_SHA256, SANDBOX_CSP } from './sandbox-frame'
import { isFromSandbox } from '../../shared/messages/sandbox-messages'

describe('the sandbox frame', () => {
  it('allows exactly its bootstrap by hash: an edit to it must update the hash', () => {
    expect(createHash('sha256').update(BOOTSTRAP).digest('base64')).toBe(BOOTSTRAP_SHA256)
  })

  it('has a CSP with no network source and no inline script but the bootstrap', () => {
    expect(SANDBOX_CSP).toContain("default-src 'none'")
    expect(SANDBOX_CSP).not.toMatch(/connect-src|'self'|https?:|'unsafe-inline'|data:/)
  })
})

describe('messages from the sandbox', () => {
  it('are accepted only in the shapes the page expects', () => {
    expect(isFromSandbox({ type: 'output', id: 1, fd: 1, bytes: new Uint8Array(1) })).toBe(true)
    expect(isFromSandbox({ type: 'done', id: 1, result: { exitCode: 0, changes: { '/workspace/a': null, '/workspace/b': new Uint8Array(0) } } })).toBe(true)
    expect(isFromSandbox({ type: 'output', id: 1, fd: 3, bytes: new Uint8Array(1) })).toBe(false)
    expect(isFromSandbox({ type: 'output', id: 1, fd: 1, bytes: 'text' })).toBe(false)
    expect(isFromSandbox({ type: 'done', id: 1, result: { exitCode: 0, changes: { '/workspace/a': 'text' } } })).toBe(false)
    expect(isFromSandbox({ type: 'eval', code: 'alert(1)' })).toBe(false)
    expect(isFromSandbox(null)).toBe(false)
  })
})
