/**
 * The files generated from the error registry: the host's and the engine's constants, and the
 * error table in docs/library.md. A test fails while one is stale;
 * `FX_UPDATE_FIXTURES=1 npx vitest run src/errors-generated.test.ts` rewrites them, for review
 * as a diff.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { ERROR_REGISTRY, type FxErrorInfo } from './shared/error-registry.ts'

const UPDATE = process.env.FX_UPDATE_FIXTURES === '1'
const HOST_CODES = new URL('./shared/error-codes.ts', import.meta.url)
const ENGINE_CODES = new URL('../wasm/engine/error-codes.ts', import.meta.url)
const LIBRARY_DOC = new URL('../docs/library.md', import.meta.url)

const entries = Object.entries(ERROR_REGISTRY) as Array<[string, FxErrorInfo]>

const HEADER = [
  '// Generated from src/shared/error-registry.ts by src/errors-generated.test.ts: do not edit. To change',
  '// a code, edit the registry and run FX_UPDATE_FIXTURES=1 npx vitest run src/errors-generated.test.ts',
]

/** Each code's constant as `declare` writes it, with the code's meaning as its doc comment. */
function constants(declare: (code: string) => string): string {
  return entries.map(([code, { meaning }]) => `/** ${meaning.replaceAll('*/', '* /')} */\n${declare(code)}\n`).join('\n')
}

/** src/shared/error-codes.ts: one export per code, so a bundle holds only the codes it uses. */
function hostCodes(): string {
  return [...HEADER, '', constants((code) => `export const ${code} = '${code}'`)].join('\n')
}

/**
 * wasm/engine/error-codes.ts: the same for AssemblyScript. Without `@lazy` every code's string
 * would be in engine.wasm, used or not (4 KB).
 */
function engineCodes(): string {
  return [
    ...HEADER,
    '// (`@lazy`: a constant the engine does not use is left out of engine.wasm).',
    '',
    constants((code) => `@lazy export const ${code}: string = '${code}'`),
  ].join('\n')
}

const RETRY = { true: 'yes', false: 'no', depends: 'depends' } as const

/** docs/library.md's "## Error codes" section, up to the next section or the end. */
function errorTableSection(): string {
  const rows = entries.map(([code, { meaning, retryable, hint }]) => `| \`${code}\` | ${meaning} | ${RETRY[`${retryable}`]} | ${hint} |`)
  return [
    '## Error codes',
    '',
    'An error that crosses the API carries one of these codes as `code`, and a message that says',
    'what happened. *Retry* says whether trying the same thing again may help.',
    '',
    '| code | meaning | retry | what to do |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}

/** `text` with its "## Error codes" section replaced by `section`. */
function withSection(text: string, section: string): string {
  const start = text.indexOf('## Error codes\n')
  if (start < 0) throw new Error('docs/library.md has no "## Error codes" section')
  const next = text.indexOf('\n## ', start)
  return text.slice(0, start) + section + (next < 0 ? '' : '\n' + text.slice(next + 1))
}

/** Compares `file` with `expected`, or writes it when updating. */
function generated(file: URL, expected: string): string {
  if (UPDATE) writeFileSync(file, expected)
  return readFileSync(file, 'utf8')
}

describe('files generated from the error registry', () => {
  test("the host's error-codes.ts declares every registered code, as the registry says", () => {
    expect(generated(HOST_CODES, hostCodes())).toBe(hostCodes())
  })

  test("the engine's error-codes.ts declares every registered code, as the registry says", () => {
    expect(generated(ENGINE_CODES, engineCodes())).toBe(engineCodes())
  })

  test("docs/library.md's error table lists every registered code with its meaning, retry and hint", () => {
    const doc = readFileSync(LIBRARY_DOC, 'utf8')
    expect(generated(LIBRARY_DOC, withSection(doc, errorTableSection()))).toBe(withSection(doc, errorTableSection()))
  })

  test('no meaning or hint holds a character that would break the table', () => {
    // Outside `code spans`, a < starts an HTML tag that a Markdown renderer would swallow.
    const broken = entries.filter(([, { meaning, hint }]) => /[|\n<]/.test(`${meaning} ${hint}`.replace(/`[^`]*`/g, ''))).map(([code]) => code)
    expect(broken).toEqual([])
  })
})
