/**
 * Type-ahead: the composer is on screen and takes keys from the moment the terminal opens, not
 * from the moment the engine has compiled, booted and sent its first frame (about 50 ms later on
 * a fast machine, much more on a slow one). Like a shell's "instant prompt", the page draws a
 * provisional frame at once — the engine's first frame from the last visit at this size, or a
 * bare `❯ ` — and echoes printable keys into it. The keys themselves go to the engine as always
 * (the worker queues them until it runs), so nothing typed is lost; when the engine's first
 * frame arrives, the provisional one is wiped and the engine draws the real composer, keys
 * included.
 */

/** The provisional composer when no earlier frame is known. */
const BARE_PROMPT = '\x1b[1m❯ \x1b[0m'
/** Home, erase the screen and the scrollback: the terminal is as the engine expects it, fresh. */
const WIPE = '\x1b[H\x1b[2J\x1b[3J'
/** A first frame larger than this is not a composer frame (it is not kept). */
const MAX_FRAME_CHARS = 16_384

type Stored = { cols: number; rows: number; frame: string }

export type TypeAhead = {
  /** Columns the page may echo into the provisional composer (for createLocalEcho). */
  readonly echoColumns: number
  /** A key was typed: the first frame is then not a clean composer frame (not kept). */
  keyTyped(): void
  /** The engine boots with what the stores held: its first frame may show a resumed transcript (not kept). */
  bootsWithStoredState(): void
  /**
   * The engine's first output is about to be written: returns what wipes the provisional frame,
   * and keeps the engine's frame for the next visit when it is a clean one.
   */
  takeOver(firstOutput: Uint8Array): string
}

export type TypeAheadOptions = {
  cols: number
  rows: number
  write(text: string): void
  /** Where frames are kept between visits (default: localStorage, when the page may use it). */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null
  /** Keeps two embeds on one origin apart. */
  namespace: string
}

/** Draws the provisional composer now; see the file comment. */
export function startTypeAhead(options: TypeAheadOptions): TypeAhead {
  const storage = options.storage === undefined ? defaultStorage() : options.storage
  const key = `fxterm:${options.namespace}:first-frame`
  const earlier = readFrame(storage, key, options.cols, options.rows)
  options.write(earlier ?? BARE_PROMPT)
  let clean = true
  return {
    // The prompt takes 2 columns; the last column is left free so an echo never wraps.
    echoColumns: Math.max(0, options.cols - 3),
    keyTyped() {
      clean = false
    },
    bootsWithStoredState() {
      clean = false
    },
    takeOver(firstOutput) {
      if (clean && firstOutput.length > 0 && firstOutput.length <= MAX_FRAME_CHARS) {
        const frame = new TextDecoder().decode(firstOutput)
        if (frame !== earlier) writeFrame(storage, key, { cols: options.cols, rows: options.rows, frame })
      }
      return WIPE
    },
  }
}

function defaultStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null // storage blocked (a sandboxed frame, strict privacy settings)
  }
}

function readFrame(storage: TypeAheadOptions['storage'], key: string, cols: number, rows: number): string | null {
  try {
    const stored = JSON.parse(storage?.getItem(key) ?? 'null') as Partial<Stored> | null
    if (stored?.cols !== cols || stored.rows !== rows || typeof stored.frame !== 'string') return null
    return stored.frame.length <= MAX_FRAME_CHARS ? stored.frame : null
  } catch {
    return null // unreadable or not ours: the bare prompt will do
  }
}

function writeFrame(storage: TypeAheadOptions['storage'], key: string, stored: Stored): void {
  try {
    storage?.setItem(key, JSON.stringify(stored))
  } catch {
    // Full or blocked storage: the next visit starts with the bare prompt, nothing else changes.
  }
}
