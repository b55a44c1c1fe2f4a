/**
 * Stand-in for `node:zlib` in the browser build (vite.config.ts aliases it here). just-bash's
 * browser bundle imports exactly `gzipSync`, `gunzipSync` and `constants` for its gzip, gunzip
 * and zcat commands; with this stub those commands fail with a clear message instead of the
 * worker bundle failing to load.
 */

const UNAVAILABLE = 'gzip is not available in the browser workspace'

/** Always throws: there is no zlib in the browser workspace. */
export function gzipSync(..._args: unknown[]): never {
  throw new Error(UNAVAILABLE)
}

/** Always throws: there is no zlib in the browser workspace. */
export function gunzipSync(..._args: unknown[]): never {
  throw new Error(UNAVAILABLE)
}

/** Read when gzip picks a level, before any (failing) compression call; values as in Node. */
export const constants = {
  Z_BEST_SPEED: 1,
  Z_BEST_COMPRESSION: 9,
  Z_DEFAULT_COMPRESSION: -1,
} as const
