/**
 * The page's side of the agent worker: one worker for the agent, one engine in it per session.
 * An `EngineRunner` whose calls go to the worker (in order, over one port) and whose hooks come
 * back in batches on a port of their own. Commands run in the page's workspace and `fetch` is
 * the app's, when given.
 */
import * as Comlink from 'comlink'
import { ErrorCode } from '../../shared/errors.ts'
import type { WorkspaceAdapter } from '../../shared/protocol/workspace.ts'
import { createFetchBridge } from '../terminal/fetch-bridge.ts'
import type { AgentWorkerApi, AgentWorkerHost, HookCalls, HookName, WorkerRunnerConfig } from '../../shared/messages/agent-worker-api.ts'
import type { EngineRunner, RunnerHooks } from '../../engine-worker/agent/engine-runner.ts'
import { EngineTrap } from '../../engine-worker/host/engine-instance.ts'

export type AgentWorker = {
  api: Comlink.Remote<AgentWorkerApi>
  /** Rejects if the worker fails (its script did not load, or it threw): comlink calls would wait forever. */
  failed: Promise<never>
  /** Ends the worker. */
  terminate(): void
}

/** Wraps a Worker (or a stand-in) running agent-worker.ts. */
export function connectAgentWorker(worker: Worker): AgentWorker {
  const failed = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (event: Event) => {
      const message = (event as ErrorEvent).message || 'the script could not be loaded'
      reject(Object.assign(new Error(`The agent's worker failed: ${message}`), { code: ErrorCode.FX_AGENT_WORKER_FAILED }))
    })
  })
  failed.catch(() => {})
  return { api: Comlink.wrap<AgentWorkerApi>(worker), failed, terminate: () => worker.terminate() }
}

let nextRunner = 1

export async function createWorkerRunner(
  worker: AgentWorker,
  config: WorkerRunnerConfig,
  hooks: RunnerHooks,
  options: { workspace?: WorkspaceAdapter; fetch?: typeof fetch },
): Promise<EngineRunner> {
  const id = nextRunner++
  const execs = new Map<number, AbortController>()
  const bridge = options.fetch ? createFetchBridge(options.fetch) : null
  const deliver = (calls: HookCalls) => {
    for (const [name, args] of calls) (hooks[name as HookName] as (...a: unknown[]) => void)(...args)
  }
  const channel = new MessageChannel()
  channel.port1.onmessage = (event: MessageEvent<HookCalls>) => deliver(event.data)
  const host: AgentWorkerHost = {
    async exec(execId, request) {
      const controller = new AbortController()
      execs.set(execId, controller)
      try {
        if (!options.workspace) return { stdout: '', stderr: 'no workspace is connected', exitCode: 127 }
        return await options.workspace.exec({ ...request, signal: controller.signal })
      } finally {
        execs.delete(execId)
      }
    },
    cancelExec(execId) {
      execs.get(execId)?.abort()
    },
    fetch: (url, init, onChunk, requestId) => (bridge ? bridge.fetch(url, init, onChunk, requestId) : Promise.resolve({ ok: false, message: 'no fetch option' })),
    abortFetch: (requestId) => bridge?.abort(requestId),
  }
  try {
    await Promise.race([worker.api.create(id, config, Comlink.proxy(host), Comlink.transfer(channel.port2, [channel.port2])), worker.failed])
  } catch (error) {
    channel.port1.close()
    throw error
  }
  // A worker that dies later takes this engine with it: the running turn ends as after a trap.
  let disposed = false
  worker.failed.catch((error: Error) => {
    if (!disposed) hooks.onTrap(Object.assign(new EngineTrap(error.message), { code: ErrorCode.FX_AGENT_WORKER_FAILED }))
  })
  const call = (method: Parameters<AgentWorkerApi['call']>[1], ...args: unknown[]) => void worker.api.call(id, method, args)
  // The worker keeps the key it was last given: a turn whose key did not change sends nothing
  // (a message each way, ahead of the prompt's).
  let apiKey = config.apiKey
  return {
    prompt: (text) => call('prompt', text),
    steer: (text) => call('steer', text),
    cancel: () => call('cancel'),
    restore: async (bytes) => deliver(await worker.api.restore(id, bytes)),
    toolResult: (toolId, text) => call('toolResult', toolId, text),
    configure: (settingId, value) => call('configure', settingId, value),
    addImages: (messageId, images) => void worker.api.addImages(id, messageId, images),
    setApiKey: (key) => {
      if (key === apiKey) return
      apiKey = key
      void worker.api.setApiKey(id, key)
    },
    dispose: () => {
      disposed = true
      for (const c of execs.values()) c.abort()
      call('dispose')
      // Hook calls still on their way are of an engine the session has let go.
      channel.port1.close()
    },
  }
}
