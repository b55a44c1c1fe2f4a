/**
 * Errors with a stable code: FxError, and the failure results worker methods return instead of
 * throwing. The codes, with what each means, are declared in src/shared/error-registry.ts; what code
 * imports is src/shared/error-codes.ts, generated from it, so the registry's prose never ships.
 */
import type * as Codes from './error-codes.ts'

/** A registered code. */
export type FxErrorCode = keyof typeof Codes

/** Each code by its own name: `ErrorCode.FX_STORE_FAILED`, never a bare string. */
export * as ErrorCode from './error-codes.ts'

/**
 * True for a code in the `FX_` style: a registered one, or an app's own that follows the
 * convention (the reference asks app stores to throw `FX_SESSION_REVISION_CONFLICT`), which
 * must pass through fxterm unchanged.
 */
export function hasFxStyle(code: unknown): code is string {
  return typeof code === 'string' && code.startsWith('FX_')
}

/** An error with a stable code (see the error table in docs/library.md). */
export class FxError extends Error {
  constructor(
    readonly code: FxErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'FxError'
  }
}

/**
 * A failure as a worker method returns it: comlink keeps only an error's name and message, so
 * failures cross threads as values and are turned back into errors on the other side.
 */
export type FxFailure<C extends string = FxErrorCode> = { ok: false; code: C; message: string }

/** The failure result for `code`. */
export function fxFailure(code: FxErrorCode, message: string): FxFailure {
  return { ok: false, code, message }
}

/** `error` as a failure result: its own string code if it has one, else `fallback`. */
export function failureOf(error: unknown, fallback: FxErrorCode): FxFailure<string> {
  const code = (error as { code?: unknown } | null)?.code
  return { ok: false, code: typeof code === 'string' ? code : fallback, message: error instanceof Error ? error.message : String(error) }
}

/**
 * The FxError a failure stands for. Its code is kept as it came: an app's own store may have
 * thrown a code of its own, which the caller passes on rather than hides.
 */
export function errorOf(failure: { code: string; message: string }): FxError {
  return new FxError(failure.code as FxErrorCode, failure.message)
}
