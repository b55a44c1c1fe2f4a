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
import type { ExecRequest } from '../../shared/messages/engine-frames.ts'
import { createHostFetch } from '../host/host-fetch.ts'
import { buildProviders, turnRequest } from './agent-providers.ts'
import { createEngineRunner, type EngineRunner, type RunnerHooks } from './engine-runner.ts'
import { createHookBatcher, type HookBatcher } from './hook-batcher.ts'
import type { FxAgentOptions } from '../../shared/agent-api/types.ts'
import type { AgentWorkerApi, AgentWorkerHost, HookCalls, HookName, Image, WorkerRunnerConfig } from '../../shared/messages/agent-worker-api.ts'
export type { AgentWorkerApi, AgentWorkerHost, HookCalls, HookName, WorkerRunnerConfig } from '../../shared/messages/agent-worker-api.ts'

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
