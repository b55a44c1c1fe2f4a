import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { SIGN_IN_CODES } from './auth-errors.ts'

describe('the sign-in error codes', () => {
  test('every code is in the README\'s error table', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const missing = Object.values(SIGN_IN_CODES).filter((code) => !readme.includes(`| \`${code}\` |`))
    expect(missing).toEqual([])
  })
})
