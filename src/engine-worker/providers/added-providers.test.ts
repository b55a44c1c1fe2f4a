import { describe, expect, it } from 'vitest'
import { nameForServer, typedServerUrl } from './added-providers.ts'

describe('a URL typed after "another server"', () => {
  it('gets a scheme (http for this machine) and /v1 when it is a bare origin', () => {
    expect(typedServerUrl('localhost:8080')).toBe('http://localhost:8080/v1')
    expect(typedServerUrl('127.0.0.1:1234/')).toBe('http://127.0.0.1:1234/v1')
    expect(typedServerUrl('models.example')).toBe('https://models.example/v1')
    expect(typedServerUrl(' http://localhost:11434 ')).toBe('http://localhost:11434/v1')
  })

  it('keeps a path as typed, without a trailing slash', () => {
    expect(typedServerUrl('https://proxy.example/openai/v1/')).toBe('https://proxy.example/openai/v1')
    expect(typedServerUrl('http://127.0.0.1:9/keyed/v1')).toBe('http://127.0.0.1:9/keyed/v1')
  })

  it('is named after its host and port, one a person can type, never taking a name in use', () => {
    expect(nameForServer('http://localhost:8080/v1', () => false)).toBe('localhost-8080')
    expect(nameForServer('https://models.example/v1', () => false)).toBe('models.example')
    expect(nameForServer('http://[::1]:9/v1', () => false)).toBe('localhost-9')
    const taken = new Set(['localhost-8080', 'localhost-8080-2'])
    expect(nameForServer('http://localhost:8080/v1', (n) => taken.has(n))).toBe('localhost-8080-3')
  })
})
