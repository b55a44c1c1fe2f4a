/**
 * The key that opens the scrollback search, kept apart from the search bar so the page can wait
 * for it before loading the bar and the search addon (about 40 KB nobody needs at start-up).
 */

/** Ctrl+Shift+F, or Cmd+F on a Mac (Ctrl+F alone is the composer's "forward a character"). */
export function isSearchKey(event: KeyboardEvent): boolean {
  if (event.type !== 'keydown' || (event.key !== 'f' && event.key !== 'F')) return false
  return (event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey) || (event.metaKey && !event.ctrlKey && !event.altKey)
}

