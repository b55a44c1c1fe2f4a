/**
 * The reference's `supportsJspi()` tells whether this runtime has JavaScript Promise Integration,
 * which its WebAssembly engine needs to wait on I/O. fxterm's engine is sans-IO (the host feeds it
 * events and carries out its effects), so no JSPI is needed anywhere and none is used.
 */

/** Whether fxterm uses JSPI here: always false, since its engine never waits inside WebAssembly. */
export function supportsJspi(): boolean {
  return false
}
