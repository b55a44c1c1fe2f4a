/**
 * The offline demo model: replays a recorded tape (see `demo-tape.ts` for the format) with no
 * network except fetching the tape itself from the page's origin. It is the default when no
 * credential is configured, so a first visit shows a real-looking session instead of an error.
 * Replies stream in small timed pieces so the page's streaming is visible.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { ChatMessage, ModelEvent, ModelProvider, ModelRequest } from '../../shared/protocol/model-events.ts'
import { type DemoResponse, type DemoTape, parseDemoTape, pickDemoResponse } from './demo-tape.ts'
import { guardEmit } from './guarded-emit.ts'
import { fetchOwnFile } from './fetch-own-file.ts'
import { addedFilesNote, type DemoWorkspace, ensureTapeFiles } from './demo-files.ts'

/** The built-in tape, relative to the page (served from `public/demos/tour.json`). */
export const DEFAULT_DEMO_TAPE_URL = './demos/tour.json'

/** Options for {@link createDemoProvider}. */
export type DemoProviderOptions = {
  /**
   * A tape URL (default {@link DEFAULT_DEMO_TAPE_URL}) or an already-loaded tape. A relative URL
   * resolves against the fetching context: from a worker, pass an absolute URL built from the
   * page's `document.baseURI`.
   */
  tape?: DemoTape | string
  /** Used only to fetch the tape; defaults to the global fetch. */
  fetch?: typeof fetch
  /** Pause between streamed text pieces in ms (default 15); 0 streams synchronously. */
  delayMs?: number
  /**
   * The workspace the tape's commands run in: a tape with `files` gives it the ones it lacks
   * before its first command (see demo-files.ts). null: there is none, so such a tape refuses.
   * Absent: nothing is checked (the caller seeds the files itself).
   */
  workspace?: DemoWorkspace | null
}

const WORDS_PER_PIECE = 3

/** Splits text into pieces of a few words; joined back they are exactly the text. */
export function splitIntoPieces(text: string): string[] {
  // Each word keeps the whitespace around it, so the pieces join back to exactly `text`.
  const words = text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text])
  const pieces: string[] = []
  for (let i = 0; i < words.length; i += WORDS_PER_PIECE) pieces.push(words.slice(i, i + WORDS_PER_PIECE).join(''))
  return pieces
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const done = (): void => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

/** Rough token counts (4 characters a token) so the page's counters move like a real model's. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** Tool call ids continue across the conversation so every id is unique, and stay deterministic. */
function toolCallsSoFar(messages: ChatMessage[]): number {
  return messages.reduce((count, message) => count + (message.role === 'assistant' ? (message.toolCalls?.length ?? 0) : 0), 0)
}

/** Whether the model already called a tool since the person's last prompt. */
function commandsRanThisTurn(messages: ChatMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.role === 'user') return false
    if (message.role === 'assistant' && (message.toolCalls?.length ?? 0) > 0) return true
  }
  return false
}

/** Creates the offline demo provider (name and label `demo`). */
export function createDemoProvider(options: DemoProviderOptions = {}): ModelProvider {
  const source = options.tape ?? DEFAULT_DEMO_TAPE_URL
  const delayMs = options.delayMs ?? 15
  let loading: Promise<DemoTape> | undefined

  const loadTape = (): Promise<DemoTape> => {
    if (typeof source !== 'string') return Promise.resolve(source)
    if (loading === undefined) {
      loading = (async () => {
        const fetchFn = options.fetch ?? fetchOwnFile
        const response = await fetchFn(source)
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        return parseDemoTape(await response.json())
      })()
      // Forget a failed load so the next request tries again (e.g. after going back online).
      loading.catch(() => {
        loading = undefined
      })
    }
    return loading
  }

  async function replay(response: DemoResponse, request: ModelRequest, emit: (event: ModelEvent) => void, signal: AbortSignal) {
    const text = response.text ?? ''
    const pieces = splitIntoPieces(text)
    // A recorded pace (`ms`) spreads the pieces over that time, as the model sent them; else a
    // piece every delayMs. delayMs 0 (tests) replays at once either way.
    const paced = response.ms !== undefined && delayMs > 0
    const step = paced ? response.ms! / (pieces.length + 1) : delayMs
    for (const [i, piece] of pieces.entries()) {
      if ((paced || i > 0) && step > 0) await pause(step, signal)
      if (signal.aborted) return
      emit({ type: 'text_delta', delta: piece })
    }
    if (paced && step > 0) await pause(step, signal)
    if (signal.aborted) return
    const calls = response.toolCalls ?? []
    const first = toolCallsSoFar(request.messages) + 1
    let argumentText = ''
    calls.forEach((call, index) => {
      const args = JSON.stringify(call.arguments)
      argumentText += args
      emit({ type: 'tool_call_start', index, id: `demo_call_${first + index}`, name: call.name })
      emit({ type: 'tool_call_delta', index, delta: args })
      emit({ type: 'tool_call_end', index })
    })
    const input = request.messages.map((message) => message.content).join('')
    emit({ type: 'usage', inputTokens: estimateTokens(input), outputTokens: estimateTokens(text + argumentText) })
    emit({ type: 'finish', reason: calls.length > 0 ? 'tool_calls' : 'stop' })
  }

  async function stream(request: ModelRequest, rawEmit: (event: ModelEvent) => void, signal: AbortSignal) {
    const { emit } = guardEmit(rawEmit, signal)
    let tape: DemoTape
    try {
      tape = await loadTape()
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      const where = typeof source === 'string' ? source : 'the tape'
      emit({
        type: 'error',
        code: ErrorCode.FX_DEMO_TAPE_UNAVAILABLE,
        message: `the offline demo could not load ${where} (${reason}); reload the page, or connect a model by setting AI_GATEWAY_API_KEY`,
        // A failed load is forgotten, so asking again fetches the tape again (e.g. back online).
        retryable: true,
      })
      return
    }
    let response = pickDemoResponse(tape, request.messages)
    if (response === undefined) {
      emit({ type: 'finish', reason: 'stop' })
      return
    }
    if (tape.files && options.workspace !== undefined && response.toolCalls?.length && !commandsRanThisTurn(request.messages)) {
      const outcome = await ensureTapeFiles(options.workspace, tape.files)
      if (signal.aborted) return
      if ('refused' in outcome) response = { text: outcome.refused }
      else if (outcome.added.length > 0) response = { ...response, text: `${addedFilesNote(outcome.added)}\n\n${response.text ?? ''}` }
    }
    await replay(response, request, emit, signal)
  }

  return {
    name: 'demo',
    label: 'demo',
    defaultModel: 'demo',
    stream,
    // The tape is the only model; it can call tools but has no efforts or fast tier.
    listModels: async () => [{ id: 'demo', supportsToolUse: true, supportsImages: false, efforts: [], fast: false }],
  }
}
