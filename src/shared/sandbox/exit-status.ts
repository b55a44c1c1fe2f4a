/**
 * The exit status a program's exit code becomes, as the OS keeps it: one byte. Node's
 * `process.exit(300)` and CPython's `sys.exit(300)` / `os._exit(300)` both end with 44, and
 * `process.exit(-1)` with 255. A code that is not an integer (NaN, a float) is 1, as an
 * uncaught exception's would be, never a status a script did not ask for.
 */
export function exitStatus(code: number): number {
  return Number.isInteger(code) ? code & 0xff : 1
}
