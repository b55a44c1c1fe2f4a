/**
 * The options createFxAgent knows. The reference lets an agent take `persistence` and `sessionId`
 * (one engine's store and id); here the durability holds every session, so those two are refused
 * with a pointer to what to use, and any other unknown name is refused rather than ignored: a
 * typo (`instruction`, `tool`) would otherwise run an agent that silently lacks it.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { FxAgentOptions } from '../../shared/agent-api/types.ts'

const KNOWN: ReadonlySet<string> = new Set<keyof FxAgentOptions>([
  'model', 'instructions', 'tools', 'provider', 'apiKey', 'env', 'credentials', 'fetch', 'configStore', 'sessionStore',
  'durability', 'onEvent', 'modelCatalog', 'maxSteps', 'streamIdleTimeoutMs', 'workspace', 'worker', 'demoTapeUrl', 'wasm', 'resizeImage',
])

const INSTEAD: Record<string, string> = {
  persistence: 'createFxAgent keeps sessions in `durability` (memory() or indexedDb()); `persistence` is an option of createFxEngine.',
  sessionId: 'createFxAgent opens sessions by id: agent.session(id); `sessionId` is not an option of the agent.',
}

/** Throws FX_AGENT_OPTION_UNKNOWN naming the first option createFxAgent does not take. */
export function checkAgentOptions(options: object): void {
  for (const name of Object.keys(options)) {
    if (KNOWN.has(name)) continue
    const error = new FxError(ErrorCode.FX_AGENT_OPTION_UNKNOWN, INSTEAD[name] ?? `createFxAgent has no option "${name}".`)
    throw Object.assign(error, { option: name })
  }
}
