/**
 * What every session of one agent shares: the compiled engine (loaded on the first turn, never
 * before), tools, durability, diagnostics, and how a turn's engine is configured — boot fields
 * from the agent's and the session's settings, providers with the turn's credential, prompt
 * images put back into the requests that carry their markers.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'
import type { ModelInfo, ModelProvider } from '../../shared/protocol/model-events.ts'
import { catalogToModelInfo } from '../../engine-worker/providers/model-list.ts'
import { buildProviders, customModelInfo, demoTapeUrlOf, providerName, turnKey, turnRequest } from '../../engine-worker/agent/agent-providers.ts'
import type { FxDurability } from './durability.ts'
import { createEngineRunner, type EngineRunner, type RunnerHooks, type RunnerOptions } from '../../engine-worker/agent/engine-runner.ts'
import type { WorkerRunnerConfig } from '../../shared/messages/agent-worker-api.ts'
import { connectAgentWorker, createWorkerRunner, type AgentWorker } from './worker-runner.ts'
import { hostToolSpecs } from './tools-bridge.ts'
import type { FxAgentEvent, FxAgentOptions, FxModel, FxTool } from '../../shared/agent-api/types.ts'
import { engineWasmUrl } from '../../engine-worker/host/engine-url.ts'
import { fetchOwnFile } from '../../engine-worker/providers/fetch-own-file.ts'

/** A session handle's settings, applied to the turns it starts. */
export type TurnSettings = {
  model?: FxModel
  instructions?: string
  context?: unknown
  /** Tools treated as idempotent for this engine (a resume whose onAmbiguous said 'rerun'). */
  rerun?: string[]
}

/** How a turn's engine is made, for the settings it asked with. */
export type BuiltRunner = {
  /** Same key: the running engine can take the turn; another key: a new engine is booted. */
  key: string
  model: string
  /** The turn's credential, for a running engine to take. */
  apiKey: string | undefined
  /** Boots an engine for these settings (in the agent's worker, or in this thread). */
  create(hooks: RunnerHooks, images: Array<[string, Array<{ mimeType: string; data: string }>]>): Promise<EngineRunner>
}

/** A stored prompt's image by message and index. */
export type ImageSource = (messageId: string, index: number) => { mimeType: string; data: string } | undefined

/** What an agent's sessions share. */
export type AgentEnv = {
  durability: FxDurability
  tools: FxTool[]
  onEvent(event: FxAgentEvent): void
  newMessageId(): string
  defaultSettings: TurnSettings
  build(sessionId: string, settings: TurnSettings, images: ImageSource): Promise<BuiltRunner>
  /** Ends the worker, if one was started. */
  close(): void
  /**
   * A session used its engine: it becomes the most recent. Past MAX_LIVE_ENGINES, the least
   * recent idle sessions are asked to let theirs go (`release` answers false when busy).
   */
  touch(sessionId: string, release: () => boolean): void
}

/** Engines an agent keeps booted; a session whose engine was let go boots one from its snapshot. */
export const MAX_LIVE_ENGINES = 8

const DEFAULT_INSTRUCTIONS = 'You are a helpful assistant.'

/** How long a turn waits for the provider's model list before it is sent unchecked. */
const CATALOG_TIMEOUT_MS = 15_000

/** A random id of letters and digits (crypto when there is one). */
export function randomId(prefix: string): string {
  const bytes = new Uint8Array(12)
  globalThis.crypto.getRandomValues(bytes)
  return prefix + Array.from(bytes, (b) => (b % 36).toString(36)).join('')
}

async function compileEngine(wasm: FxAgentOptions['wasm']): Promise<WebAssembly.Module> {
  if (wasm instanceof WebAssembly.Module) return wasm
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) return WebAssembly.compile(wasm as BufferSource)
  // Shipped beside this module (engine-url.ts): found after `npm install`, and in Node as a file.
  const url = wasm ?? engineWasmUrl()
  const failed = (why: string) => Object.assign(new Error(`engine.wasm could not be loaded from ${String(url)} (${why})`), { code: ErrorCode.FX_ENGINE_LOAD_FAILED })
  let response: Response
  try {
    response = await fetchOwnFile(url)
  } catch (error) {
    throw failed(error instanceof Error ? error.message : String(error))
  }
  if (!response.ok) throw failed(`HTTP ${response.status}`)
  try {
    return await WebAssembly.compile(await response.arrayBuffer())
  } catch (error) {
    throw failed(error instanceof Error ? error.message : String(error))
  }
}

/** The shared part of an agent, from its options. */
/** A setting the model's catalog entry says it does not take fails the turn (an unknown model or field: the server decides). */
function checkModelSettings(info: { efforts?: string[]; fast?: boolean; ultrafast?: boolean } | undefined, model: string, fast: boolean, effort: string, ultrafast: boolean): void {
  if (effort && info?.efforts && !info.efforts.includes(effort)) {
    const offered = info.efforts.length > 0 ? `it takes ${info.efforts.join(', ')}` : 'it takes none'
    throw new FxError(ErrorCode.LIBFX_MODEL_UNSUPPORTED_EFFORT, `The model ${model} does not take effort "${effort}": ${offered}.`)
  }
  if (fast && info?.fast === false) throw new FxError(ErrorCode.LIBFX_MODEL_UNSUPPORTED_FAST, `The model ${model} has no fast tier.`)
  if (ultrafast && info?.ultrafast === false) throw new FxError(ErrorCode.LIBFX_MODEL_UNSUPPORTED_ULTRAFAST, `The model ${model} has no ultrafast tier.`)
}

export function createAgentEnv(options: FxAgentOptions, tools: FxTool[], durability: FxDurability, onEvent: (event: FxAgentEvent) => void): AgentEnv {
  let module: Promise<WebAssembly.Module> | null = null
  let worker: AgentWorker | null = null
  const catalog = options.modelCatalog ? catalogToModelInfo(options.modelCatalog) : undefined
  /** The provider's model list, asked once; undefined when it cannot be had (the turn is sent as it is). */
  let listed: Promise<ModelInfo[] | undefined> | null = null
  const providerCatalog = (provider: ModelProvider) =>
    (listed ??= (provider.listModels?.(AbortSignal.timeout(CATALOG_TIMEOUT_MS)) ?? Promise.resolve(undefined)).catch(() => undefined))
  const workspace = options.workspace
  const useWorker = options.worker ?? (typeof Worker === 'function' && typeof document !== 'undefined')
  /** Each session's providers of its latest turn (a request reads them as it is sent). */
  const current = new Map<string, ModelProvider[]>()
  /** Sessions with a booted engine, least recently used first. */
  const live = new Map<string, () => boolean>()
  return {
    touch(sessionId, release) {
      live.delete(sessionId)
      live.set(sessionId, release)
      for (const [id, letGo] of live) {
        if (live.size <= MAX_LIVE_ENGINES) break
        if (id !== sessionId && letGo()) {
          live.delete(id)
          current.delete(id)
        }
      }
    },
    durability,
    tools,
    onEvent,
    newMessageId: () => randomId('m'),
    defaultSettings: {},
    close() {
      worker?.terminate()
      worker = null
    },
    async build(sessionId, settings, images) {
      module ??= compileEngine(options.wasm)
      const compiled = await module.catch((error: unknown) => {
        module = null
        throw error
      })
      const provider = providerName(options)
      const apiKey = await turnKey(options, sessionId)
      // Without a model in the options, the one the configStore kept (the reference's `model` setting).
      const modelSetting = settings.model ?? options.model ?? ((await options.configStore?.get('model')) || undefined)
      const demoTapeUrl = demoTapeUrlOf(options)
      const built = buildProviders({ ...options, ...(demoTapeUrl ? { demoTapeUrl } : {}) }, modelSetting, apiKey)
      const ultrafast = typeof modelSetting === 'object' && modelSetting.ultrafast === true
      current.set(
        sessionId,
        built.providers.map((p) => ({ ...p, stream: (request, emit, signal) => p.stream(turnRequest(request, images, ultrafast), emit, signal), listModels: p.listModels?.bind(p) })),
      )
      const instructions = settings.instructions ?? options.instructions ?? DEFAULT_INSTRUCTIONS
      const fast = typeof modelSetting === 'object' && modelSetting.fast === true
      const effort = typeof modelSetting === 'object' ? (modelSetting.effort ?? '') : ''
      const known = catalog?.find((info) => info.id === built.model) ?? customModelInfo(options, built.model)
      // No catalog given and a setting to check: the provider's own list, fetched once per agent.
      const asked = fast || ultrafast || effort !== ''
      const entry = known ?? (asked && !catalog ? (await providerCatalog(built.providers[0]!))?.find((info) => info.id === built.model) : undefined)
      checkModelSettings(entry, built.model, fast, effort, ultrafast)
      const boot: RunnerOptions['boot'] = {
        provider: built.active,
        providers: built.providers.map((p) => ({ name: p.name, label: p.label, model: p.defaultModel })),
        model: built.model,
        tools: workspace !== undefined,
        cwd: workspace?.info.cwd ?? '/',
        notices: [],
        args: [],
        systemPrompt: instructions,
        hostTools: hostToolSpecs(tools).map((spec) => (settings.rerun?.includes(spec.name) ? { ...spec, idempotent: true } : spec)),
        // Headless, nobody can answer "run this command?": a workspace's commands run.
        permission: 'allow-sandboxed',
        config: (fast ? { fast: 'on' } : {}) as Record<string, string>,
        ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
        ...(effort ? { effort } : {}),
      }
      return {
        key: JSON.stringify([built.active, built.model, instructions, fast, ultrafast, effort, settings.rerun ?? []]),
        model: built.model,
        apiKey,
        create: async (hooks, stored) => {
          if (!useWorker) {
            return createEngineRunner({
              module: compiled,
              boot,
              providers: () => current.get(sessionId) ?? built.providers,
              ...(catalog ? { catalog } : {}),
              ...(workspace ? { exec: async (request, signal) => workspace.exec({ ...request, signal }) } : {}),
              ...(options.streamIdleTimeoutMs !== undefined ? { idleTimeoutMs: options.streamIdleTimeoutMs } : {}),
              hooks,
            })
          }
          worker ??= connectAgentWorker(typeof useWorker === 'function' ? useWorker() : spawnAgentWorker())
          const started = worker
          // A worker that failed is not used again: the next turn starts a new one.
          started.failed.catch(() => {
            if (worker === started) worker = null
          })
          const config: WorkerRunnerConfig = {
            module: compiled,
            boot,
            ...(catalog ? { catalog } : {}),
            provider: {
              provider: typeof options.provider === 'object' ? options.provider : provider,
              ...(options.modelCatalog ? { modelCatalog: options.modelCatalog } : {}),
              ...(demoTapeUrl ? { demoTapeUrl } : {}),
              model: built.model,
            },
            ...(apiKey ? { apiKey } : {}),
            hostFetch: options.fetch !== undefined,
            ultrafast,
            workspace: workspace !== undefined,
            images: stored,
            ...(options.streamIdleTimeoutMs !== undefined ? { idleTimeoutMs: options.streamIdleTimeoutMs } : {}),
          }
          return createWorkerRunner(worker, config, hooks, { ...(workspace ? { workspace } : {}), ...(options.fetch ? { fetch: options.fetch } : {}) })
        },
      }
    },
  }
}

/** Keep the `new Worker(new URL(...), ...)` form: it is how Vite finds and bundles the worker. */
function spawnAgentWorker(): Worker {
  return new Worker(new URL('../../engine-worker/agent/agent-worker.ts', import.meta.url), { type: 'module', name: 'fxagent-engine' })
}
