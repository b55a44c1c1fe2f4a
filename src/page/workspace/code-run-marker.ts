/**
 * Page side: remembers, in sessionStorage, that a `node` or `python3` run is in progress. A
 * JavaScript heap that grows without end takes the whole tab down in Chromium (see
 * docs/ARCHITECTURE.md, "Memory"); when the tab is reloaded, the mark is still there and the
 * person is told what most likely happened instead of finding a silently reset terminal.
 */

const KEY = 'fxterm-code-run'

export type CodeRunMarker = {
  started(command: string): void
  ended(): void
  /** The line to show once, when the last page ended in the middle of a run; else null. */
  leftOver(): string | null
}

export function createCodeRunMarker(storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null): CodeRunMarker {
  const safely = <T>(use: () => T, otherwise: T): T => {
    try {
      return storage ? use() : otherwise
    } catch {
      return otherwise // storage blocked or full: the mark is a courtesy, never a failure
    }
  }
  const before = safely(() => storage!.getItem(KEY), null)
  safely(() => storage!.removeItem(KEY), undefined)
  let told = false
  return {
    started: (command) => safely(() => storage!.setItem(KEY, command), undefined),
    ended: () => safely(() => storage!.removeItem(KEY), undefined),
    leftOver() {
      if (before === null || told) return null
      told = true
      return `The page was reloaded while \`${before}\` was running; the tab most likely ran out of memory. The files and the conversation are as they were before that run.`
    },
  }
}
