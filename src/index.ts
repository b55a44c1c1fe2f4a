/**
 * fxterm's public API: a coding agent in a browser tab.
 * Named re-exports only; see README.md and docs/library.md for examples.
 */
export { createFxTerminal, spawnEngineWorker } from './page/create-fx-terminal.ts'
export type { FxTerminal, FxTerminalOptions } from './page/create-fx-terminal.ts'
export { xtermAdapter, encodeXtermKeyEvent } from './page/xterm-adapter.ts'
export type { TerminalAdapter } from './page/terminal-adapter.ts'
export { preloadEngine } from './page/preload-engine.ts'
export { FxError } from './errors.ts'
export { createBashWorkspace } from './workspace/create-bash-workspace.ts'
export type { BashWorkspace, BashWorkspaceOptions } from './workspace/create-bash-workspace.ts'
export type { WorkspaceAdapter, WorkspaceInfo, ExecInput, ExecResult } from './protocol/workspace.ts'
export { idbConfigStore } from './stores/idb-config-store.ts'
export { idbPromptHistoryStore } from './stores/idb-prompt-history-store.ts'
export { idbSessionStore } from './stores/idb-session-store.ts'
export { idbOAuthSessionStore } from './stores/idb-oauth-session-store.ts'
export { idbKeyStore } from './auth/idb-key-store.ts'
export type { SignInOptions } from './auth/issuer-config.ts'
export { memoryConfigStore, memoryPromptHistoryStore, memorySessionStore, memoryOAuthSessionStore } from './stores/memory-stores.ts'
export { openBrowserStores } from './stores/open-browser-stores.ts'
export type { BrowserStores, OpenBrowserStoresOptions } from './stores/open-browser-stores.ts'
export { guardStore } from './stores/guard-store.ts'
export type { ConfigStore, PromptHistoryStore, SessionStore, OAuthSessionStore } from './stores/types.ts'
export { PROVIDER_PRESETS } from './providers/provider-presets.ts'
export type { CustomProviderConfig } from './providers/provider-registry.ts'
export type { ModelInfo } from './protocol/model-events.ts'
export { createFxAgent } from './agent-api/create-fx-agent.ts'
export { createFxEngine } from './agent-api/create-fx-engine.ts'
export type { FxEngine, FxEngineOptions, FxEngineTurn } from './agent-api/create-fx-engine.ts'
export { memory, indexedDb } from './agent-api/durability.ts'
export type { FxDurability } from './agent-api/durability.ts'
export { createMemoryPersistence, FxFencedError, FxJournalVersionError } from './agent-api/persistence.ts'
export type { Persistence, JournalRecord } from './agent-api/persistence.ts'
export { listModels } from './agent-api/list-models.ts'
export { supportsJspi } from './agent-api/supports-jspi.ts'
export { resizeImageInBrowser } from './agent-api/image-fit.ts'
export type { FxResizeImage, FxImageLimits } from './agent-api/image-fit.ts'
export type { FxToolResult } from './agent-api/tools-bridge.ts'
export type { ListModelsOptions } from './agent-api/list-models.ts'
export type {
  FxAgent,
  FxAgentOptions,
  FxAgentEvent,
  FxSession,
  FxSessionOptions,
  FxTurn,
  FxTurnResult,
  FxStreamLine,
  FxStreamEvent,
  FxTool,
  FxToolContext,
  FxPromptInput,
  FxPromptBlock,
  FxModel,
  FxCredentials,
  FxStopReason,
  FxUsage,
  FxResumeOptions,
  FxAmbiguousCall,
} from './agent-api/types.ts'
