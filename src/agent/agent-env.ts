/**
 * What every session of one agent shares: the compiled engine (loaded on the first turn, never
 * before), tools, durability, diagnostics, and how a turn's engine is configured — boot fields
 * from the agent's and the session's settings, providers with the turn's credential, prompt
 * images put back into the requests that carry their markers.
 */
import type { ChatMessage, ModelProvider, ModelRequest } from '../protocol/model-events.ts'
import { catalogToModelInfo } from '../providers/model-list.ts'
import { buildProviders, providerName } from './agent-providers.ts'
import type { FxDurability } from './durability.ts'
import type { RunnerOptions } from './engine-runner.ts'
import { IMAGE_MARKER } from './prompt-input.ts'
import { hostToolSpecs } from './tools-bridge.ts'
import type { FxAgentEvent, FxAgentOptions, FxModel, FxTool } from './types.ts'

export type TurnSettings = { model?: FxModel; instructions?: string; context?: unknown }

export type BuiltRunner = {
  /** Same key: the running engine can take the turn; another key: a new engine is booted. */
  key: string
  model: string
  options: Omit<RunnerOptions, 'hooks'>
}

export type ImageSource = (messageId: string, index: number) => { mimeType: string; data: string } | undefined

export type AgentEnv = {
  durability: FxDurability
  tools: FxTool[]
  onEvent(event: FxAgentEvent): void
  newMessageId(): string
  defaultSettings: TurnSettings
  build(sessionId: string, settings: TurnSettings, images: ImageSource): Promise<BuiltRunner>
}

const DEFAULT_INSTRUCTIONS = 'You are a helpful assistant.'

/** A random id of letters and digits (crypto when there is one). */
export function randomId(prefix: string): string {
  const bytes = new Uint8Array(12)
  globalThis.crypto.getRandomValues(bytes)
  return prefix + Array.from(bytes, (b) => (b % 36).toString(36)).join('')
}

async function compileEngine(wasm: FxAgentOptions['wasm']): Promise<WebAssembly.Module> {
  if (wasm instanceof WebAssembly.Module) return wasm
  if (wasm instanceof ArrayBuffer || ArrayBuffer.isView(wasm)) return WebAssembly.compile(wasm as BufferSource)
  const url = wasm ?? new URL('./engine.wasm', (globalThis as { location?: { href: string } }).location?.href ?? 'file:///')
  const response = await fetch(url)
  if (!response.ok) throw Object.assign(new Error(`engine.wasm could not be loaded from ${String(url)} (HTTP ${response.status})`), { code: 'FX_ENGINE_LOAD_FAILED' })
  return WebAssembly.compile(await response.arrayBuffer())
}

/** Swaps image markers in user messages for the images they stand for. */
export function withImages(request: ModelRequest, images: ImageSource): ModelRequest {
  if (!request.messages.some((m) => m.role === 'user' && m.content.includes('⟦fx-image:'))) return request
  const messages = request.messages.map((m): ChatMessage => {
    if (m.role !== 'user' || !m.content.includes('⟦fx-image:')) return m
    const found: Array<{ mimeType: string; data: string }> = []
    const content = m.content.replace(IMAGE_MARKER, (_all, messageId: string, index: string) => {
      const image = images(messageId, Number(index))
      if (image) found.push(image)
      return ''
    })
    return found.length > 0 ? { role: 'user', content, images: found } : { role: 'user', content }
  })
  return { ...request, messages }
}

export function createAgentEnv(options: FxAgentOptions, tools: FxTool[], durability: FxDurability, onEvent: (event: FxAgentEvent) => void): AgentEnv {
  let module: Promise<WebAssembly.Module> | null = null
  const catalog = options.modelCatalog ? catalogToModelInfo(options.modelCatalog) : undefined
  const specs = hostToolSpecs(tools)
  const workspace = options.workspace
  /** Each session's providers of its latest turn (a request reads them as it is sent). */
  const current = new Map<string, ModelProvider[]>()
  return {
    durability,
    tools,
    onEvent,
    newMessageId: () => randomId('m'),
    defaultSettings: {},
    async build(sessionId, settings, images) {
      module ??= compileEngine(options.wasm)
      const compiled = await module.catch((error: unknown) => {
        module = null
        throw error
      })
      const provider = providerName(options)
      const credential = options.credentials ? await options.credentials({ provider, sessionId }) : undefined
      const apiKey = credential?.apiKey ?? options.apiKey
      const modelSetting = settings.model ?? options.model
      const built = buildProviders(options, modelSetting, apiKey)
      current.set(
        sessionId,
        built.providers.map((p) => ({ ...p, stream: (request, emit, signal) => p.stream(withImages(request, images), emit, signal), listModels: p.listModels?.bind(p) })),
      )
      const instructions = settings.instructions ?? options.instructions ?? DEFAULT_INSTRUCTIONS
      const fast = typeof modelSetting === 'object' && modelSetting.fast === true
      const key = JSON.stringify([built.active, built.model, instructions, fast])
      return {
        key,
        model: built.model,
        options: {
          module: compiled,
          boot: {
            provider: built.active,
            providers: built.providers.map((p) => ({ name: p.name, label: p.label, model: p.defaultModel })),
            model: built.model,
            tools: workspace !== undefined,
            cwd: workspace?.info.cwd ?? '/',
            notices: [],
            args: [],
            systemPrompt: instructions,
            hostTools: specs,
            permission: 'allow-sandboxed',
            config: (fast ? { fast: 'on' } : {}) as Record<string, string>,
            ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
          },
          providers: () => current.get(sessionId) ?? built.providers,
          ...(catalog ? { catalog } : {}),
          ...(workspace ? { exec: async (request, signal) => workspace.exec({ ...request, signal }) } : {}),
        },
      }
    },
  }
}
