/** A line that holds a secret is refused before it is kept anywhere: history, conversation, export, screen. */
import { describe, expect, it } from 'vitest'
import { createHarness } from './harness.ts'

const PROVIDERS = [
  { name: 'demo', label: 'demo', model: 'demo', baseUrl: '', key: 'not_needed' as const },
  { name: 'openai', label: 'openai', model: 'gpt-5-mini', baseUrl: 'https://api.openai.com/v1', key: 'key' as const },
]

const SECRETS: [string, string][] = [
  ['/key <provider> <value> on one line', '/key openai sk-proj-typedInTheOpen0123456789abcdef'],
  ['/key with a value that has no known shape', '/key openai hunter2-my-own-server-key'],
  ['/key with the value alone', '/key sk-typed-in-the-open-0123456789abcd'],
  ['an OpenAI key inside a prompt', 'please use my key sk-proj-Abc123def456GHI789jkl012mno to call the api'],
  ['an Anthropic key', 'key=sk-ant-api03-AbCdEf0123456789ghIJkl-mnop_QRst'],
  ['a Groq key', 'export GROQ_API_KEY=gsk_4f9aQ2wErTy7uIoP1aSdFgHjKlZx'],
  ['an xAI key', 'xai-Zx9Cv8Bn7Mm6Ll5Kk4Jj3Hh2Gg1Ff0Dd'],
  ['a Google key', 'gemini says AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q is mine'],
  ['a GitHub classic token', 'git remote uses ghp_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['a GitHub fine-grained token', 'token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz'],
  ['/key github with the token on the line', '/key github ghp_16C7e42F292c6912E7710c838347Ae178B4a'],
  ['a JWT', 'my token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'],
]

function secretPart(line: string): string {
  const words = line.split(/[\s=]+/)
  return words.reduce((longest, word) => (word.length > longest.length ? word : longest), '')
}

describe('lines that hold a secret', () => {
  for (const [what, line] of SECRETS) {
    it(`${what}: nothing is sent, kept in history or left on screen`, async () => {
      const h = await createHarness({ providers: PROVIDERS })
      await h.type(`${line}\r`)
      const secret = secretPart(line)
      expect(h.allOf('history_append')).toEqual([])
      expect(h.allOf('model_request')).toEqual([])
      expect(h.allOf('auth')).toEqual([])
      expect(h.screen()).not.toContain(secret)
      expect(h.screen()).toMatch(/looks like an API key|\/key takes a provider name, not the key/)
      // Up brings back nothing: the line is not in this tab's history either.
      await h.type('\x1b[A')
      expect(h.screen()).not.toContain(secret)
    })
  }

  it('a prompt with a secret never reaches the conversation, so neither a session nor /export holds it', async () => {
    const h = await createHarness({ providers: PROVIDERS, sessions: true })
    await h.type('here is sk-proj-Abc123def456GHI789jkl012mno\r')
    await h.type('hello\r')
    expect(h.allOf('history_append')).toEqual([{ kind: 'history_append', value: 'hello' }])
    await h.type('/export\r')
    const exported = JSON.stringify(h.allOf('action'))
    expect(exported).toContain('hello')
    expect(exported).not.toContain('sk-proj-Abc123def456GHI789jkl012mno')
    const commits = h.allOf('session_commit')
    expect(commits.length).toBeGreaterThan(0)
    const committed = commits.map((effect) => new TextDecoder().decode(effect.bytes)).join('')
    expect(committed).toContain('hello')
    expect(committed).not.toContain('sk-proj-Abc123def456GHI789jkl012mno')
  })

  it('prose that only resembles a key goes through: no digit, too short, or inside a word', async () => {
    const h = await createHarness({ providers: PROVIDERS })
    const lines = ['install sk-learn-the-basics-of-machine-learning', 'the task-1234567890123456789012345 is done', 'sk-12345 is short', '/key openai clear']
    for (const line of lines) await h.type(`${line}\r`)
    expect(h.allOf('history_append').map((effect) => effect.value)).toEqual(lines)
  })
})
