// The reference README's snippets as a TypeScript app would write them against fxterm's types
// (`npm run typecheck` compiles this file): a tool's input destructured as in the reference, a
// turn's lines narrowed, a result's fields, a Persistence store of its own, an image tool result.
// Nothing here runs an agent; the checks are the type checker's.
import { describe, expect, expectTypeOf, it } from 'vitest'
import { createFxAgent, createFxEngine, FxFencedError, type FxAgentEvent, type FxTool, type FxToolResult, type Persistence } from '../../index.ts'

const orders = new Map<string, { id: string; total: number }>()
const byId = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }

/** Compiled, never called. */
async function referenceSnippets(): Promise<void> {
  // Tools that change things: the input is the model's JSON, destructured as the reference does.
  const tools: FxTool[] = [
    { name: 'get_order', description: 'Look up an order.', inputSchema: byId, idempotent: true, execute: ({ id }) => orders.get(id) },
    {
      name: 'refund_order',
      description: 'Refund an order.',
      inputSchema: byId,
      writes: true,
      execute: async ({ id }, { executionId, signal, sessionId, context }) => `${id} ${executionId} ${signal.aborted} ${sessionId} ${String(context)}`,
    },
    {
      name: 'screenshot',
      execute: (): FxToolResult => ({ type: 'libfx.tool-result', text: 'the page', images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }] }),
    },
  ]
  const agent = createFxAgent({
    model: { id: 'anthropic/claude-opus-5.5', effort: 'high', fast: true, ultrafast: true },
    tools,
    resizeImage: true,
    onEvent: (event: FxAgentEvent) => {
      if (event.type === 'checkpoint.mismatch') expectTypeOf(event.changed).toEqualTypeOf<Array<'model' | 'tools' | 'version'>>()
    },
  })
  const turn = agent.session(undefined, { model: { id: 'm', effort: 'high' }, instructions: 'You review pull requests.', context: { userId: 'u' } }).prompt([
    { type: 'text', text: "What's wrong with this chart?" },
    { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
  ])
  const { sessionId } = await turn.accepted
  expectTypeOf(sessionId).toBeString()
  for await (const event of turn) if (event.type === 'text_delta') expectTypeOf(event.delta).toBeString()
  const { stopReason, usage, error } = await turn.result
  expectTypeOf(usage.outputTokens).toBeNumber()
  expectTypeOf(error).toEqualTypeOf<{ code: string; message: string } | undefined>()
  expectTypeOf(stopReason).toExtend<string>()

  // The Persistence interface, implemented by the app.
  const journal: Array<{ cursor: string; data: Uint8Array }> = []
  const store: Persistence = {
    async load() {
      return { journal }
    },
    async append({ expected, data }) {
      if (expected !== (journal.at(-1)?.cursor ?? null)) throw new FxFencedError()
      journal.push({ cursor: String(journal.length + 1), data })
      return { cursor: String(journal.length) }
    },
  }
  const engine = await createFxEngine({ model: 'anthropic/claude-haiku-5.5', persistence: store, resizeImage: (image, limits) => ({ mimeType: 'image/jpeg', data: image.data.subarray(0, limits.maxBytes) }) })
  const summary = engine.prompt([{ type: 'image', data: new Blob([]) }])
  summary.steer('shorter')
  const checkpoint: Uint8Array = await engine.checkpoint()
  expectTypeOf(checkpoint).toEqualTypeOf<Uint8Array>()
}

describe('the reference snippets in TypeScript', () => {
  it('compile against fxterm types (the type checker is the test)', () => {
    expect(typeof referenceSnippets).toBe('function')
  })
})
