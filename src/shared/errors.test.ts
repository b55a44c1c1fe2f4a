import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { ERROR_REGISTRY } from './error-registry.ts'
import { FxFencedError, FxJournalVersionError } from '../page/agent-api/persistence.ts'
import { EngineTrap } from '../engine-worker/host/engine-instance.ts'
import { ErrorCode, errorOf, failureOf, FxError, fxFailure, hasFxStyle } from './errors.ts'
import { ModelCatalogError } from '../engine-worker/providers/list-models.ts'

const ROOT = new URL('../../', import.meta.url)
const SCANNED = ['src', 'wasm', 'e2e']
const TEXT = /\.(ts|mts|mjs|js|json|html|md|sse)$/

/** FX_ names that are settings (environment variables), not error codes. */
const SETTINGS = new Set(['FX_API_KEY', 'FX_BASE_URL', 'FX_MODEL', 'FX_UPDATE_FIXTURES'])
/** The test tools' own environment variables (ports, browser paths, benchmark choices). */
const TOOLING = /^FX_(E2E|FIREFOX|CHROME|PACK|BENCH)_/

type Source = { path: string; text: string }

const isRegistered = (name: unknown): boolean => typeof name === 'string' && Object.hasOwn(ERROR_REGISTRY, name)

/** Every text file under the scanned folders, by its path from the repository's root. */
function sources(): Source[] {
  const found: Source[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(new URL(dir, ROOT), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'build') walk(path)
      } else if (TEXT.test(entry.name)) found.push({ path, text: readFileSync(new URL(path, ROOT), 'utf8') })
    }
  }
  for (const dir of SCANNED) walk(dir)
  return found
}

/** The FX_ names in `text`; a prefix (`FX_MODEL_*`, `'FX_'`) names no code and is skipped. */
function namesIn(text: string): string[] {
  return [...text.matchAll(/\b(?:LIB)?FX_[A-Z0-9_]+/g)].map((m) => m[0]).filter((name) => !name.endsWith('_'))
}

/** Test code: spec files, the engine's tests, and helpers that import vitest. */
function isTest({ path, text }: Source): boolean {
  return /\.(test|spec)\.ts$/.test(path) || path.startsWith('wasm/tests/') || path.startsWith('e2e/') || /from 'vitest'/.test(text)
}

const all = sources()
/** The registry, what is generated from it, and its own tests (which name codes to test it). */
const OWN = new Set(['src/shared/error-registry.ts', 'src/shared/error-codes.ts', 'wasm/engine/error-codes.ts', 'src/shared/errors.test.ts', 'src/errors-generated.test.ts'])
const scanned = all.filter(({ path }) => !OWN.has(path))

describe('the error registry', () => {
  test('every FX_ code written in src/, wasm/ and e2e/ is declared in the registry', () => {
    const undeclared = scanned.flatMap(({ path, text }) =>
      namesIn(text)
        .filter((name) => !isRegistered(name) && !SETTINGS.has(name) && !TOOLING.test(name))
        .map((name) => `${path}: ${name}`),
    )
    expect([...new Set(undeclared)]).toEqual([])
  })

  test('every declared code is raised by the host (as ErrorCode.X) or by the engine (imported from error-codes)', () => {
    const raised = new Set<string>()
    for (const source of scanned) {
      if (isTest(source)) continue
      if (source.path.startsWith('src/')) for (const m of source.text.matchAll(/\bErrorCode\.((?:LIB)?FX_\w+)/g)) raised.add(m[1]!)
      if (source.path.startsWith('wasm/engine/')) {
        for (const m of source.text.matchAll(/import \{([^}]*)\} from '(?:\.\.?\/)+error-codes'/g)) for (const name of namesIn(m[1]!)) raised.add(name)
      }
    }
    expect(Object.keys(ERROR_REGISTRY).filter((code) => !raised.has(code))).toEqual([])
  })

  test('code names a code through the registry, never as a string literal of its own', () => {
    const literals = scanned.flatMap(({ path, text }) =>
      path.endsWith('.json') || path.endsWith('.sse')
        ? []
        : [...text.matchAll(/(['"])((?:LIB)?FX_[A-Z0-9_]+)\1/g)].filter((m) => isRegistered(m[2])).map((m) => `${path}: ${m[0]}`),
    )
    expect(literals).toEqual([])
  })

  test('every entry has a code in the FX_ style, a meaning, a retry verdict and a hint', () => {
    const malformed = Object.entries(ERROR_REGISTRY).filter(
      ([code, info]) =>
        !/^(LIB)?FX_[A-Z0-9]+(_[A-Z0-9]+)*$/.test(code) || info.meaning.trim() === '' || info.hint.trim() === '' || ![true, false, 'depends'].includes(info.retryable),
    )
    expect(malformed).toEqual([])
    expect(Object.entries(ErrorCode).filter(([key, value]) => key !== value)).toEqual([])
    expect(Object.keys(ErrorCode).sort()).toEqual(Object.keys(ERROR_REGISTRY).sort())
  })
})

describe('FxError and failure results', () => {
  test('an FxError carries its code, its message and the name FxError', () => {
    const error = new FxError(ErrorCode.FX_STORE_FAILED, 'the disk is full')
    expect([error instanceof Error, error.name, error.code, error.message]).toEqual([true, 'FxError', 'FX_STORE_FAILED', 'the disk is full'])
  })

  test('the coded error classes are FxErrors and keep their own name, code and message', () => {
    const errors = [
      new FxFencedError(),
      new FxJournalVersionError(2),
      new EngineTrap('unreachable executed'),
      new ModelCatalogError(ErrorCode.FX_MODEL_CATALOG_UNAVAILABLE, 'the server does not list its models', true, 404),
    ]
    expect(errors.map((error) => [error instanceof FxError, error.name, error.code, error.message])).toEqual([
      [true, 'FxFencedError', 'FX_FENCED', 'Another engine wrote this conversation first (the expected cursor is stale).'],
      [true, 'FxJournalVersionError', 'FX_JOURNAL_VERSION', 'This journal record has format 2; this fxterm reads format 1.'],
      [true, 'EngineTrap', 'FX_ENGINE_TRAP', 'unreachable executed'],
      [true, 'ModelCatalogError', 'FX_MODEL_CATALOG_UNAVAILABLE', 'the server does not list its models'],
    ])
    expect([errors[0] instanceof FxFencedError, errors[2] instanceof EngineTrap, errors[3] instanceof ModelCatalogError]).toEqual([true, true, true])
  })

  test('no error class outside tests carries a registered code without extending FxError', () => {
    const plainCoded = sources()
      .filter((source) => source.path.startsWith('src/') && !isTest(source))
      .flatMap(({ path, text }) =>
        [...text.matchAll(/class (\w+) extends Error \{([\s\S]*?)\n\}/g)]
          .filter((match) => match[1] !== 'FxError' && /\b(ErrorCode|FxErrorCode|FX_[A-Z_]+)\b/.test(match[2]!))
          .map((match) => `${path}: ${match[1]}`),
      )
    expect(plainCoded).toEqual([])
  })

  test('a thrown error crosses a thread as a failure and comes back as an FxError with its code', () => {
    const thrown = new FxError(ErrorCode.FX_SESSION_REVISION_CONFLICT, 'session "s1" was changed elsewhere')
    const failure = failureOf(thrown, ErrorCode.FX_STORE_FAILED)
    expect(failure).toEqual({ ok: false, code: 'FX_SESSION_REVISION_CONFLICT', message: 'session "s1" was changed elsewhere' })
    const rebuilt = errorOf(failure)
    expect([rebuilt instanceof FxError, rebuilt.code, rebuilt.message]).toEqual([true, 'FX_SESSION_REVISION_CONFLICT', 'session "s1" was changed elsewhere'])
  })

  test('a failure without a code of its own takes the fallback, and an app code is kept as it came', () => {
    expect(failureOf(new Error('blocked'), ErrorCode.FX_STORE_FAILED)).toEqual({ ok: false, code: 'FX_STORE_FAILED', message: 'blocked' })
    expect(failureOf('plain text', ErrorCode.FX_STORE_FAILED)).toEqual({ ok: false, code: 'FX_STORE_FAILED', message: 'plain text' })
    expect(failureOf(Object.assign(new Error('mine'), { code: 'APP_OWN' }), ErrorCode.FX_STORE_FAILED).code).toBe('APP_OWN')
    expect(fxFailure(ErrorCode.FX_ENGINE_LOAD_FAILED, 'no wasm')).toEqual({ ok: false, code: 'FX_ENGINE_LOAD_FAILED', message: 'no wasm' })
  })

  test('hasFxStyle takes a registered code or an app code in the FX_ style, and nothing else', () => {
    expect(['FX_STORE_FAILED', 'FX_APP_OWN', 'LIBFX_MODEL_UNSUPPORTED_FAST', undefined].map(hasFxStyle)).toEqual([true, true, false, false])
  })
})
