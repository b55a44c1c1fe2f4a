// What the model-loop specs share: opening the page on any base URL (the mock's CORS-less path
// too), reading the engine's own word-wrapped blocks back as sentences, and the turn's state as
// the activity row shows it.
import { expect, type Page } from '@playwright/test'
import { BANNER } from './app.ts'
import type { ReceivedRequest } from './mock-model.ts'
import { readScreen, readViewport, waitForScreen, waitForTerminal } from './screen.ts'
import { textOf } from './tool-messages.ts'

/** Shown on the activity row while a turn runs (the retry countdown row replaces it). */
export const RUNNING = 'esc to interrupt'

/** Opens the page on an OpenAI-compatible `baseUrl` (e.g. the mock's `noCorsBaseUrl`). */
export async function openWithBaseUrl(page: Page, baseUrl: string, model = 'mock-model'): Promise<void> {
  await page.goto(`/?${new URLSearchParams({ baseUrl, model })}`)
  await waitForTerminal(page)
  await waitForScreen(page, BANNER)
}

/**
 * The blocks that start with `marker` (`✗ ` for errors), each as one line of text. The engine
 * wraps a block itself, indenting its continuation rows by two spaces, so a sentence that wraps
 * is joined back here the way it was written.
 */
export function blocksStartingWith(screen: string, marker: string): string[] {
  const blocks: string[] = []
  let open: string[] | null = null
  for (const line of screen.split('\n')) {
    if (line.trimStart().startsWith(marker)) {
      open = [line.trim()]
      blocks.push('')
    } else if (open !== null && /^ {2}\S/.test(line)) {
      open.push(line.trim())
    } else {
      open = null
    }
    if (open !== null) blocks[blocks.length - 1] = open.join(' ')
  }
  return blocks
}

/** How many times `text` occurs in `screen` (non-overlapping). */
export function occurrences(screen: string, text: string): number {
  return screen.split(text).length - 1
}

/** Polls until no activity row is on screen: the turn is over. */
export async function waitForTurnOver(page: Page, timeout = 15_000): Promise<void> {
  await expect
    .poll(async () => (await readViewport(page)).some((row) => row.includes(RUNNING)), { intervals: [50, 100, 200], timeout, message: 'the activity row is gone' })
    .toBe(false)
}

/** Polls until a row on screen (not scrollback, which may hold stale footer rows) contains `text`. */
export async function waitForRow(page: Page, text: string, timeout = 15_000): Promise<void> {
  await expect
    .poll(async () => (await readViewport(page)).join('\n'), { intervals: [50, 100, 200], timeout, message: `a row on screen shows "${text}"` })
    .toContain(text)
}

/** The error lines (`✗ …`) in the whole buffer, each joined back into one line. */
export async function readErrors(page: Page): Promise<string[]> {
  return blocksStartingWith(await readScreen(page), '✗ ')
}

/** A message as the specs compare it: role, text, and the ids that pair calls with results. */
export type WireMessage = { role: string; content: string; toolCallIds?: string[]; toolCallId?: string }

/** The messages of a received request in a comparable shape (content parts joined to text). */
export function wireMessages(request: ReceivedRequest | undefined): WireMessage[] {
  return (request?.messages ?? []).map((message) => {
    const out: WireMessage = { role: message.role, content: message.content === null || message.content === undefined ? '' : textOf(message.content) }
    if (message.tool_calls) out.toolCallIds = message.tool_calls.map((call) => String((call as { id?: unknown }).id))
    if (message.tool_call_id) out.toolCallId = message.tool_call_id
    return out
  })
}
