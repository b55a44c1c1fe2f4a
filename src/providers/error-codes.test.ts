import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { MODEL_ERROR_CODES } from './error-codes.ts'

/** The error codes written in the providers' sources (tests excluded). */
function codesInSources(): string[] {
  const folder = new URL('./', import.meta.url)
  const codes = new Set<string>()
  for (const file of readdirSync(folder)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === 'error-codes.ts') continue
    const text = readFileSync(new URL(file, folder), 'utf8')
    for (const match of text.matchAll(/'(FX_(?:MODEL|DEMO)_[A-Z_]+)'/g)) codes.add(match[1]!)
  }
  return [...codes].sort()
}

describe('the provider error code registry', () => {
  test('lists exactly the codes the providers emit', () => {
    expect(Object.keys(MODEL_ERROR_CODES).sort()).toEqual(codesInSources())
  })
})
