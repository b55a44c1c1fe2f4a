import { describe, expect, it } from 'vitest'
import type { AccountCredentials } from './account-credentials.ts'
import { createAuthorizedFetch } from './authorized-fetch.ts'

function credentials(tokens: string[]): AccountCredentials & { retries: string[] } {
  const retries: string[] = []
  return {
    retries,
    bearer: async () => tokens[0],
    retryBearer: async (rejected) => {
      retries.push(rejected)
      return tokens[1]
    },
    kind: async () => 'signed_in',
    signIn: async () => {},
    signOut: async () => ({ wasSignedIn: false }),
    secrets: () => tokens,
  }
}

describe('authorized fetch', () => {
  it('sends the current token as a bearer, replacing any authorization header', async () => {
    const seen: Array<string | null> = []
    const base: typeof fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers).get('authorization'))
      return new Response('ok')
    }
    const authorized = createAuthorizedFetch(credentials(['fxat_first_token']), () => base)
    await authorized('https://model.example/v1/chat/completions', { method: 'POST', headers: { authorization: 'Bearer stale' } })
    expect(seen).toEqual(['Bearer fxat_first_token'])
  })

  it('after a 401 retries once with the refreshed token', async () => {
    const seen: Array<string | null> = []
    const base: typeof fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers).get('authorization'))
      return new Response('{}', { status: seen.length === 1 ? 401 : 200 })
    }
    const creds = credentials(['fxat_old_token', 'fxat_new_token'])
    const response = await createAuthorizedFetch(creds, () => base)('https://m.example/v1/chat/completions')
    expect(response.status).toBe(200)
    expect(seen).toEqual(['Bearer fxat_old_token', 'Bearer fxat_new_token'])
    expect(creds.retries).toEqual(['fxat_old_token'])
  })

  it('masks the token in an error body the server echoes', async () => {
    const base: typeof fetch = async () => new Response('{"error":"token fxat_old_token is not allowed here"}', { status: 403 })
    const response = await createAuthorizedFetch(credentials(['fxat_old_token']), () => base)('https://m.example/v1/models')
    expect(response.status).toBe(403)
    expect(await response.text()).toBe('{"error":"token *** is not allowed here"}')
  })

  it('sends no authorization header when there is no credential', async () => {
    const seen: Array<string | null> = []
    const base: typeof fetch = async (_input, init) => {
      seen.push(new Headers(init?.headers).get('authorization'))
      return new Response('{}', { status: 401 })
    }
    await createAuthorizedFetch(credentials([]), () => base)('https://m.example/v1/chat/completions')
    expect(seen).toEqual([null])
  })
})
