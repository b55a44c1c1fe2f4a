/**
 * The agent's engine worker: runs one headless engine per session (engine-runner.ts), builds
 * the providers there and makes the model requests there, as the terminal's worker does. Tool
 * calls, commits and the turn's events go back to the page on the runner's own `hooks` port,
 * batched (hook-batcher.ts says when a batch goes). They are plain one-way messages, not comlink
 * calls: a call is a round trip (an id, a pending promise, and the page's answer posted back),
 * paid for every network read of a reply. During `restore` they are held and travel with its
 * answer instead, so the page sees a restored turn's start before `restore` settles. Commands
 * and the app's fetch go through `host` (comlink): they answer.
 */
import * as Comlink from 'comlink'
import type { ModelInfo } from '../protocol/model-events.ts'
import type { ExecResult } from '../protocol/workspace.ts'
import type { ExecRequest } from './engine-frames.ts'
import { createHostFetch } from '../../engine-worker/host/host-fetch.ts'
import type { HostFetchHead } from './worker-api.ts'
import { buildProviders, turnRequest } from '../../engine-worker/agent/agent-providers.ts'
import { createEngineRunner, type EngineRunner, type RunnerHooks, type RunnerOptions } from '../../engine-worker/agent/engine-runner.ts'
import { createHookBatcher, type HookBatcher } from '../../engine-worker/agent/hook-batcher.ts'
import type { FxAgentOptions } from '../agent-api/types.ts'

type Image = { mimeType: string; data: string }
/** The runner hooks that cross from the worker to the page. */
export type HookName = 'onRequest' | 'onModelEvent' | 'onEngineEvent' | 'onCommit' | 'onToolCall' | 'onToolCancel' | 'onTrap'

/** What the worker needs to run one session's engine; all of it crosses postMessage. */
export type WorkerRunnerConfig = {
  module: WebAssembly.Module
  /** The `streamIdleTimeoutMs` option. */
  idleTimeoutMs?: number
  boot: RunnerOptions['boot']
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
function commitBuffers(calls: HookCalls): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = []
  for (const [name, args] of calls) if (name === 'onCommit') buffers.push((args[0] as Uint8Array).buffer as ArrayBuffer)
  return buffers
}

/** The worker's implementation (exposed by agent-worker.ts; tests serve it in-process). */
export function createAgentWorkerApi(): AgentWorkerApi {
  const runners = new Map<number, { runner: EngineRunner; port: MessagePort; batcher: HookBatcher<HookCalls[number]>; setApiKey(key: string | undefined): void; images: Map<string, Image[]> }>()
  let nextExec = 1
  return {
    async create(id, config, hostProxy, port) {
      const host = hostProxy as unknown as Comlink.Remote<AgentWorkerHost>
      const batcher = createHookBatcher<HookCalls[number]>((calls) => port.postMessage(calls, commitBuffers(calls)))
      const hook = (name: HookName) => (...args: unknown[]) => {
        // A trap's error object does not survive postMessage: its message does.
        batcher.push([name, name === 'onTrap' ? [{ message: (args[0] as Error).message }] : args])
      }
      const hooks = Object.fromEntries((['onRequest', 'onModelEvent', 'onEngineEvent', 'onCommit', 'onToolCall', 'onToolCancel', 'onTrap'] as const).map((n) => [n, hook(n)])) as unknown as RunnerHooks
      const images = new Map(config.images)
      const fetchFn = config.hostFetch ? createHostFetch(host as never) : undefined
      let apiKey = config.apiKey
      const { model: _model, ...chosen } = config.provider
      const providerOptions: FxAgentOptions = { ...chosen, ...(fetchFn ? { fetch: fetchFn } : {}) }
      let providers = buildProviders(providerOptions, config.provider.model, apiKey).providers
      const wrap = () =>
        providers.map((p) => ({ ...p, stream: (request: Parameters<typeof p.stream>[0], emit: Parameters<typeof p.stream>[1], signal: AbortSignal) => p.stream(turnRequest(request, (m, i) => images.get(m)?.[i], config.ultrafast), emit, signal) }))
      let wrapped = wrap()
      const runner = await createEngineRunner({
        module: config.module,
        boot: config.boot,
        ...(config.catalog ? { catalog: config.catalog } : {}),
        ...(config.idleTimeoutMs !== undefined ? { idleTimeoutMs: config.idleTimeoutMs } : {}),
        providers: () => wrapped,
        ...(config.workspace
          ? {
              exec: (request: ExecRequest, signal: AbortSignal) => {
                const execId = nextExec++
                signal.addEventListener('abort', () => void host.cancelExec(execId))
                return host.exec(execId, request)
              },
            }
          : {}),
        hooks,
      })
      runners.set(id, {
        runner,
        port,
        batcher,
        images,
        setApiKey(key) {
          if (key === apiKey) return
          apiKey = key
          providers = buildProviders(providerOptions, config.provider.model, apiKey).providers
          wrapped = wrap()
        },
      })
    },
    call(id, method, args) {
      const r = runners.get(id)
      if (!r) return
      ;(r.runner[method] as (...a: unknown[]) => void)(...args)
      if (method !== 'dispose') return
      runners.delete(id)
      r.batcher.close()
      r.port.close()
    },
    async restore(id, bytes) {
      const r = runners.get(id)
      if (!r) return []
      // The answer carries them: a message on the hooks port could arrive after it.
      r.batcher.hold()
      await r.runner.restore(bytes)
      return r.batcher.take()
    },
    addImages(id, messageId, images) {
      runners.get(id)?.images.set(messageId, images)
    },
    setApiKey(id, apiKey) {
      runners.get(id)?.setApiKey(apiKey)
    },
  }
}
