/**
 * `createFxEngine(options)`: one conversation with no session store — restored from a
 * `checkpoint` (opaque bytes from `checkpoint()`), or recorded step by step in a `persistence`
 * store so that a new engine on the same store can `resume()` a turn the last one left open.
 * The turn itself has `cancel()` and `steer()`, and breaking out of its events cancels it.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import { createFxAgent } from './create-fx-agent.ts'
import { memory } from './durability.ts'
import { decodeRecord, FxFencedError, persistenceDurability, type Persistence } from './persistence.ts'
import { CHECKPOINT_MAX_BYTES } from './session-core.ts'
import type { FxAgentOptions, FxPromptInput, FxResumeOptions, FxStreamLine, FxTurn, FxTurnResult } from '../../shared/agent-api/types.ts'


/** The agent's options (no durability: the conversation is the engine's), plus where it starts from. */
export type FxEngineOptions = Omit<FxAgentOptions, 'durability' | 'sessionStore'> & {
  /** Bytes from `engine.checkpoint()` (or `session.checkpoint()`) to continue from. */
  checkpoint?: Uint8Array
  /** Records every step; exclusive with `checkpoint`. */
  persistence?: Persistence
  /** Handed to every tool call as `context`. */
  context?: unknown
}

/** An engine's turn: the agent's turn view, plus `cancel()` and `steer()` of its own. */
export type FxEngineTurn = FxTurn & { cancel(): void; steer(text: string): void }

/** One conversation with no session store. */
export type FxEngine = {
  prompt(input: FxPromptInput, options?: { messageId?: string; signal?: AbortSignal }): FxEngineTurn
  /** The conversation as opaque bytes (at most 4 MiB). */
  checkpoint(): Promise<Uint8Array>
  /**
   * Continues a turn the last engine on this persistence left open (null: none was). A call that
   * was running and is not `idempotent` is put to `onAmbiguous`: `'rerun'` runs it again under
   * the same executionId, anything else tells the model it may have partly run.
   */
  resume(options?: FxResumeOptions): Promise<FxTurnResult | null>
  close(): Promise<void>
}

const ENGINE_SESSION = 'engine'

/** Creates an engine; see the module comment and docs/library.md "Headless agent API". */
export async function createFxEngine(options: FxEngineOptions = {}): Promise<FxEngine> {
  if (options.checkpoint && options.persistence) throw new FxError(ErrorCode.FX_ENGINE_OPTIONS, 'Pass checkpoint or persistence, not both.')
  let fenced: FxFencedError | null = null
  let durability = memory()
  if (options.persistence) {
    durability = persistenceDurability(options.persistence, (error) => {
      fenced = error
      options.onEvent?.({ type: 'persistence.fenced', message: error.message })
      session.cancel()
    })
  } else if (options.checkpoint) {
    if (options.checkpoint.length > CHECKPOINT_MAX_BYTES) throw new FxError(ErrorCode.FX_CHECKPOINT_TOO_LARGE, 'A checkpoint is at most 4 MiB.')
    await durability.save(ENGINE_SESSION, decodeRecord(options.checkpoint.slice()), [])
  }
  const { checkpoint: _c, persistence: _p, context, ...agentOptions } = options
  const agent = createFxAgent({ ...agentOptions, durability })
  const session = agent.session(ENGINE_SESSION, context !== undefined ? { context } : {})
  let running: FxTurn | null = null

  return {
    prompt(input, promptOptions = {}) {
      if (fenced) throw fenced
      const turn = session.prompt(input, promptOptions)
      running = turn
      void turn.result.finally(() => {
        if (running === turn) running = null
      })
      let settled = false
      void turn.result.then(() => (settled = true))
      const cancel = () => {
        if (running === turn) session.cancel()
      }
      return Object.assign(Object.create(turn) as FxTurn, {
        messageId: turn.messageId,
        accepted: turn.accepted,
        result: turn.result,
        [Symbol.asyncIterator]() {
          const inner = turn[Symbol.asyncIterator]()
          return {
            next: () => inner.next(),
            async return(): Promise<IteratorResult<FxStreamLine>> {
              // Breaking out of an engine turn's events cancels it.
              if (!settled) cancel()
              return (await inner.return?.()) ?? { value: undefined, done: true }
            },
          }
        },
        cancel,
        steer: (text: string) => session.steer(text),
      }) as FxEngineTurn
    },
    async checkpoint() {
      const bytes = await session.checkpoint()
      if (bytes.length > CHECKPOINT_MAX_BYTES) throw new FxError(ErrorCode.FX_CHECKPOINT_TOO_LARGE, 'The conversation is larger than a 4 MiB checkpoint.')
      return bytes
    },
    resume: (options) => session.resume(options),
    close: () => agent.close(),
  }
}
