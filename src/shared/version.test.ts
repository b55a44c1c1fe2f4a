import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { FXTERM_VERSION } from './version.ts'

test("FXTERM_VERSION is package.json's version", () => {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
  expect(FXTERM_VERSION).toBe(manifest.version)
})
