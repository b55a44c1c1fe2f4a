/**
 * A deadline and stable error codes around any store, fxterm's or the app's own. A store method
 * that throws, rejects or never settles must not hang or crash a turn: the guarded method always
 * settles, and when it fails the error carries a code the caller can report (once per streak,
 * with an `onEvent` such as `session.commit_error`).
 */
import { ErrorCode, FxError, hasFxStyle } from '../../shared/errors.ts'
import { isQuotaError, messageOf } from '../../shared/stores/store-errors.ts'

/** Options of `guardStore`. */
export type GuardStoreOptions = {
  /** What the store is called in messages: "session store" → "session store commit timed out…". */
  name: string
  /** How long one call may take before it fails with FX_STORE_TIMEOUT. Default 10 s. */
  timeoutMs?: number
}

/** `T` with every method answering a promise. */
export type Guarded<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K]
}

const DEFAULT_TIMEOUT_MS = 10_000

/**
 * `store` with each method bounded by a deadline. Errors that already carry an `FX_` code (a
 * revision conflict, say) pass through unchanged; a full quota becomes FX_STORE_QUOTA_EXCEEDED
 * and anything else FX_STORE_FAILED, with the original error as `cause`. A call that times out
 * keeps running; its late answer is ignored.
 */
export function guardStore<T extends object>(store: T, options: GuardStoreOptions): Guarded<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) throw new TypeError(`timeoutMs must be a positive number, not ${timeoutMs}`)
  const guarded: Record<string, unknown> = {}
  for (const name of methodNames(store)) {
    const method = (store as Record<string, (...args: unknown[]) => unknown>)[name]!
    guarded[name] = (...args: unknown[]) =>
      guardCall(`${options.name} ${name}`, timeoutMs, () => method.apply(store, args))
  }
  return guarded as Guarded<T>
}

/** `call()`'s answer, or a coded error once it throws, rejects or outlives `timeoutMs`. */
export function guardCall<T>(what: string, timeoutMs: number, call: () => T | PromiseLike<T>): Promise<Awaited<T>> {
  return new Promise<Awaited<T>>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new FxError(ErrorCode.FX_STORE_TIMEOUT, `${what} did not finish within ${formatDuration(timeoutMs)}; the browser's storage may be stuck`))
    }, timeoutMs)
    // The executor catches a synchronous throw from `call` as a rejection.
    new Promise<Awaited<T>>((settle) => settle(call() as Awaited<T>)).then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(toStoreError(error, what))
      },
    )
  })
}

/** `error` with a stable code: its own FX_ code if it has one, else a quota or general failure. */
export function toStoreError(error: unknown, what: string): Error {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined
  if (error instanceof Error && hasFxStyle(code)) return error
  const coded = isQuotaError(error)
    ? new FxError(
        ErrorCode.FX_STORE_QUOTA_EXCEEDED,
        `${what} failed: the browser's storage for this site is full; delete old sessions or clear this site's data to make room`,
      )
    : new FxError(ErrorCode.FX_STORE_FAILED, `${what} failed: ${messageOf(error)}`)
  coded.cause = error
  return coded
}

/** The methods of `store`, own or inherited from a class (not Object's). */
function methodNames(store: object): string[] {
  const names = new Set<string>()
  for (let level: object | null = store; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level)) {
    for (const name of Object.getOwnPropertyNames(level)) {
      if (name !== 'constructor' && typeof (store as Record<string, unknown>)[name] === 'function') names.add(name)
    }
  }
  return [...names]
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}
