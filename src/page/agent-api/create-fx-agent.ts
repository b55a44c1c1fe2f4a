/**
 * `createFxAgent(options)`: the engine as a headless agent, the browser part of the reference's
 * agent API. Creating it touches no network, storage or engine: the engine loads when a session
 * runs its first turn. Sessions are opened by id; each keeps one turn running at a time.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import { createAgentEnv, randomId, type TurnSettings } from './agent-env.ts'
import { checkAgentOptions } from './agent-options.ts'
import { memory } from './durability.ts'
import { sessionStoreDurability } from './session-store-durability.ts'
import { checkPrompt, hasBinaryImages, hasImages, inlineImages } from '../../engine-worker/agent/prompt-input.ts'
import { fitImages, resizeImageInBrowser } from './image-fit.ts'
import { createSessionCore, type SessionCore } from './session-core.ts'
import { normalizeTools } from './tools-bridge.ts'
import { createTurnView } from './turn-view.ts'
import type { FxAgent, FxAgentEvent, FxAgentOptions, FxPromptInput, FxSession, FxSessionOptions, FxTurn, FxTurnResult } from '../../shared/agent-api/types.ts'

const SESSION_ID = /^[A-Za-z0-9._-]{1,128}$/

/** Throws FX_SESSION_ID_INVALID unless `id` is 1–128 letters, digits, `.`, `_` or `-`. */
export function checkSessionId(id: string): string {
  if (typeof id !== 'string' || !SESSION_ID.test(id)) throw new FxError(ErrorCode.FX_SESSION_ID_INVALID, 'A session id is 1-128 letters, digits, ".", "_" or "-".')
  return id
}

/** `onEvent` never gets a credential: a key-like field is dropped, and a throwing listener is ignored. */
function safeListener(onEvent: FxAgentOptions['onEvent']): (event: FxAgentEvent) => void {
  if (!onEvent) return () => {}
  return (event) => {
    const clean: Record<string, unknown> = { ...event }
    for (const key of Object.keys(clean)) if (/key|token|authorization|header|credential/i.test(key)) delete clean[key]
    try {
      onEvent(clean as FxAgentEvent)
    } catch {
      // a listener's failure never stops a turn
    }
  }
}

/** Creates the agent; see docs/library.md "Headless agent API". */
export function createFxAgent(options: FxAgentOptions = {}): FxAgent {
  checkAgentOptions(options)
  const tools = normalizeTools(options.tools)
  const onEvent = safeListener(options.onEvent)
  // Sessions live in `durability`; else in the reference `sessionStore`; else in this page's memory.
  const durability = options.durability ?? (options.sessionStore ? sessionStoreDurability(options.sessionStore) : memory())
  const env = createAgentEnv(options, tools, durability, onEvent)
  const resize = options.resizeImage === true ? resizeImageInBrowser : options.resizeImage || undefined
  const cores = new Map<string, SessionCore>()
  let closed = false

  const coreOf = (id: string) => {
    let core = cores.get(id)
    if (!core) cores.set(id, (core = createSessionCore(id, env)))
    return core
  }

  const openSession = (id: string, settings: TurnSettings): FxSession => {
    const core = coreOf(id)
    return {
      id,
      prompt(input: FxPromptInput, promptOptions: { messageId?: string; signal?: AbortSignal } = {}): FxTurn {
        if (closed) throw new FxError(ErrorCode.FX_AGENT_CLOSED, 'The agent was closed.')
        // Images as bytes or Blobs are read, and with resizeImage made to fit, before the prompt is stored.
        const prepared = hasBinaryImages(input) || (resize && hasImages(input)) ? inlineImages(input).then((inlined) => (resize ? fitImages(inlined, resize) : inlined)) : undefined
        if (!prepared) checkPrompt(input)
        prepared?.catch(() => {}) // its failure rejects `accepted`
        const messageId = promptOptions.messageId ?? env.newMessageId()
        checkSessionId(messageId)
        const signal = promptOptions.signal
        if (signal?.aborted) {
          // Never stored and never run.
          const accepted = Promise.reject(new FxError(ErrorCode.FX_TURN_CANCELLED, 'The prompt was cancelled before it was stored.'))
          accepted.catch(() => {})
          const result: FxTurnResult = { messageId, stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0 } }
          return createTurnView({ core, messageId, accepted, result: Promise.resolve(result), from: Promise.resolve(0), empty: true })
        }
        let onStored!: (isNew: boolean) => void
        let onFailed!: (error: unknown) => void
        const stored = new Promise<boolean>((resolve, reject) => ((onStored = resolve), (onFailed = reject)))
        const from = core.log().then((log) => log.cursor, () => null)
        core.enqueue({ messageId, input, settings, ...(signal ? { signal } : {}), ...(prepared ? { prepared } : {}), onStored, onFailed })
        const accepted = stored.then(() => ({ messageId, sessionId: id }))
        accepted.catch(() => {}) // the failure is in `result` too; an unread `accepted` must not be an unhandled rejection
        const result = stored.then(
          (isNew) => core.resultOf(messageId).then((r) => (isNew ? r : { ...r, repeated: true })),
          (error: { code?: string; message?: string }): FxTurnResult =>
            error?.code === ErrorCode.FX_TURN_CANCELLED
              ? { messageId, stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0 } }
              : { messageId, stopReason: 'error', usage: { inputTokens: 0, outputTokens: 0 }, error: { code: error?.code ?? ErrorCode.FX_STORE_FAILED, message: error?.message ?? String(error) } },
        )
        return createTurnView({ core, messageId, accepted, result, from: stored.then((isNew) => (isNew ? from : 0), () => null) })
      },
      stream(cursor = 0, streamOptions: { signal?: AbortSignal } = {}) {
        let reader: ReadableStreamDefaultReader<Uint8Array> | null = null
        return new ReadableStream<Uint8Array>({
          async start() {
            const log = await core.log()
            reader = log.readable(cursor, streamOptions.signal ? { signal: streamOptions.signal } : {}).getReader()
          },
          async pull(controller) {
            const step = await reader!.read()
            if (step.done) controller.close()
            else controller.enqueue(step.value)
          },
          async cancel() {
            await reader?.cancel()
          },
        })
      },
      steer: (text) => core.steer(text, settings),
      cancel: () => core.cancel(),
      resume: (resumeOptions) => core.resume(resumeOptions),
      checkpoint: () => core.checkpoint(),
    }
  }

  return {
    session(id?: string, sessionOptions: FxSessionOptions = {}) {
      const settings: TurnSettings = {
        ...(sessionOptions.model !== undefined ? { model: sessionOptions.model } : {}),
        ...(sessionOptions.instructions !== undefined ? { instructions: sessionOptions.instructions } : {}),
        ...(sessionOptions.context !== undefined ? { context: sessionOptions.context } : {}),
      }
      return openSession(id === undefined ? randomId('s') : checkSessionId(id), settings)
    },
    newSessionId: async () => randomId('s'),
    async close() {
      closed = true
      await Promise.all([...cores.values()].map((core) => core.idle()))
      for (const core of cores.values()) core.dispose()
      env.close()
    },
  }
}
