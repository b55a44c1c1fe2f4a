/**
 * fxterm's public API: a coding agent in a browser tab.
 * Named re-exports only; see README.md and docs/library.md for examples.
 */
export { createFxTerminal, spawnEngineWorker } from './page/terminal/create-fx-terminal.ts'
export type { FxTerminal, FxTerminalOptions } from './page/terminal/create-fx-terminal.ts'
export { xtermAdapter, encodeXtermKeyEvent } from './page/terminal/xterm-adapter.ts'
export type { TerminalAdapter } from './shared/terminal-adapter.ts'
export { preloadEngine } from './engine-worker/host/preload-engine.ts'
export { FxError } from './shared/errors.ts'
export { createBashWorkspace } from './page/workspace/create-bash-workspace.ts'
export type { BashWorkspace, BashWorkspaceOptions } from './page/workspace/create-bash-workspace.ts'
export type { WorkspaceAdapter, WorkspaceInfo, ExecInput, ExecResult } from './shared/protocol/workspace.ts'
export { idbConfigStore } from './engine-worker/stores/idb-config-store.ts'
export { idbPromptHistoryStore } from './engine-worker/stores/idb-prompt-history-store.ts'
export { idbSessionStore } from './engine-worker/stores/idb-session-store.ts'
export { idbOAuthSessionStore } from './page/stores/idb-oauth-session-store.ts'
export { idbKeyStore } from './page/stores/idb-key-store.ts'
export type { SignInOptions } from './engine-worker/auth/issuer-config.ts'
export { memoryConfigStore, memoryPromptHistoryStore, memorySessionStore, memoryOAuthSessionStore } from './page/stores/memory-stores.ts'
export { openBrowserStores } from './page/stores/open-browser-stores.ts'
export type { BrowserStores, OpenBrowserStoresOptions } from './page/stores/open-browser-stores.ts'
export { guardStore } from './engine-worker/stores/guard-store.ts'
export type { ConfigStore, PromptHistoryStore, SessionStore, OAuthSessionStore } from './shared/stores/types.ts'
export { PROVIDER_PRESETS } from './engine-worker/providers/provider-presets.ts'
export type { CustomProviderConfig } from './engine-worker/providers/provider-registry.ts'
export type { ModelInfo } from './shared/protocol/model-events.ts'
export { createFxAgent } from './page/agent-api/create-fx-agent.ts'
export { createFxEngine } from './page/agent-api/create-fx-engine.ts'
export type { FxEngine, FxEngineOptions, FxEngineTurn } from './page/agent-api/create-fx-engine.ts'
export { memory, indexedDb } from './page/agent-api/durability.ts'
export type { FxDurability } from './page/agent-api/durability.ts'
export { createMemoryPersistence, FxFencedError, FxJournalVersionError } from './page/agent-api/persistence.ts'
export type { Persistence, JournalRecord } from './page/agent-api/persistence.ts'
export { listModels } from './page/agent-api/list-models.ts'
export { supportsJspi } from './page/agent-api/supports-jspi.ts'
export { resizeImageInBrowser } from './page/agent-api/image-fit.ts'
export type { FxResizeImage, FxImageLimits } from './page/agent-api/image-fit.ts'
export type { FxToolResult } from './page/agent-api/tools-bridge.ts'
export type { ListModelsOptions } from './page/agent-api/list-models.ts'
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
} from './shared/agent-api/types.ts'
