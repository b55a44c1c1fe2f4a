/**
 * fxterm's public API: a coding agent in a browser tab.
 * Named re-exports only; see README.md for examples.
 */
export { createFxTerminal, spawnEngineWorker } from './terminal/create-fx-terminal.ts'
export type { FxTerminal, FxTerminalOptions } from './terminal/create-fx-terminal.ts'
export { xtermAdapter, encodeXtermKeyEvent } from './terminal/xterm-adapter.ts'
export type { TerminalAdapter } from './terminal/terminal-adapter.ts'
export { preloadEngine } from './terminal/preload-engine.ts'
export { FxError } from './terminal/fx-error.ts'
export { createBashWorkspace } from './workspace/create-bash-workspace.ts'
export type { BashWorkspace, BashWorkspaceOptions } from './workspace/create-bash-workspace.ts'
export type { WorkspaceAdapter, WorkspaceInfo, ExecInput, ExecResult } from './protocol/workspace.ts'
