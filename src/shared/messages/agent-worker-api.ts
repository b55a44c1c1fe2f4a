/**
 * What crosses between the page and the agent's worker (comlink): the worker's API, the page's side
 * it calls back, and a runner's config. The worker's side is src/engine-worker/agent/agent-worker-api.ts.
 */

import type { ModelInfo } from '../protocol/model-events.ts'
import type { ExecResult } from '../protocol/workspace.ts'
import type { BootOptions, ExecRequest } from './engine-frames.ts'
import type { HostFetchHead } from './worker-api.ts'
import type { FxAgentOptions } from '../agent-api/types.ts'

export type Image = { mimeType: string; data: string }
/** The runner hooks that cross from the worker to the page. */
export type HookName = 'onRequest' | 'onModelEvent' | 'onEngineEvent' | 'onCommit' | 'onToolCall' | 'onToolCancel' | 'onTrap'

/** What the worker needs to run one session's engine; all of it crosses postMessage. */
export type WorkerRunnerConfig = {
  module: WebAssembly.Module
  /** The `streamIdleTimeoutMs` option. */
  idleTimeoutMs?: number
  boot: Omit<BootOptions, 'seed' | 'cols' | 'rows'>
  catalog?: ModelInfo[]
  /** The provider (its name resolved by the page), its catalog, and the model. */
  provider: Required<Pick<FxAgentOptions, 'provider'>> & Pick<FxAgentOptions, 'modelCatalog' | 'demoTapeUrl'> & { model: string }
  /** The turn's credential (`credentials()` or the `apiKey` option, asked for on the page). */
  apiKey?: string
  /** Requests go through the page's `fetch` option. */
  hostFetch: boolean
  /** The session asked for the ultrafast tier (the engine does not know it; the request carries it). */
  ultrafast: boolean
  workspace: boolean
  images: Array<[string, Image[]]>
}

/** A batch of hook calls, as the `hooks` port carries them. */
export type HookCalls = Array<[HookName, unknown[]]>

/** The page's side, called from the worker (wrapped with Comlink.proxy). */
export type AgentWorkerHost = {
  exec(execId: number, request: ExecRequest): Promise<ExecResult>
  cancelExec(execId: number): void
  fetch(url: string, init: { method: string; headers: [string, string][]; body?: string }, onChunk: (chunk: Uint8Array | null) => void, requestId: number): Promise<HostFetchHead>
  abortFetch(requestId: number): void
}

/** What the page calls in the agent's worker (one engine per runner id). */
export type AgentWorkerApi = {
  /** `hooks`: the port the runner's hook calls go out on (transferred; closed when it is disposed). */
  create(id: number, config: WorkerRunnerConfig, host: AgentWorkerHost, hooks: MessagePort): Promise<void>
  call(id: number, method: 'prompt' | 'steer' | 'cancel' | 'toolResult' | 'configure' | 'dispose', args: unknown[]): void
  /** Restores a snapshot; answers with the hook calls it caused (a resumed turn's start among them). */
  restore(id: number, bytes: Uint8Array): Promise<HookCalls>
  addImages(id: number, messageId: string, images: Image[]): void
  setApiKey(id: number, apiKey: string | undefined): void
}

/** A commit's snapshot bytes are the engine's copy, used by nothing else here: they move to the page instead of being copied (200 KB and more at a long turn's end). */
