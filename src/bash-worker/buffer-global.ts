/**
 * Puts a real `Buffer` on the bash worker's globalThis (needs the `buffer` npm package).
 *
 * Why: just-bash's browser bundle uses Buffer when it exists and otherwise converts bytes with
 * `String.fromCharCode(...chunk)` on 64 KiB chunks. A spread of 65,536 arguments overflows the
 * stack in a Chromium worker (measured: 48,894 works, 65,536 throws "Maximum call stack size
 * exceeded"), so without Buffer any file of 64 KiB or more reads as "No such file or directory"
 * (upstream issue #282). Imported first by bash-worker.ts, before just-bash loads.
 */

import { Buffer } from 'buffer'

// Cast: the npm package's Buffer type and @types/node's global differ, but are compatible at runtime.
;(globalThis as { Buffer?: unknown }).Buffer ??= Buffer
