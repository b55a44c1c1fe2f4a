/**
 * The public API, pinned: every export of the package's two entries (`fxterm`: src/index.ts, and
 * `fxterm/fx-terminal`: the element) with its kind, and the attributes <fx-terminal> reads. A
 * change to the API is a change to this file, so it shows in review as a diff.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, expectTypeOf, test } from 'vitest'
import type { BashWorkspaceOptions, FxTerminalOptions } from './index.ts'

const source = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8')

/** The names a module re-exports, by kind of statement: `export { … }` and `export type { … }`. */
function reExports(text: string): { values: string[]; types: string[] } {
  const values: string[] = []
  const types: string[] = []
  for (const [, isType, names] of text.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
    for (const item of names!.split(',').map((name) => name.trim()).filter(Boolean)) {
      const name = item.split(/\s+as\s+/).pop()!
      if (isType || name.startsWith('type ')) types.push(name.replace(/^type /, ''))
      else values.push(name)
    }
  }
  return { values, types }
}

/** 'class', 'function' or 'object': what a value export is at run time. */
function kindOf(value: unknown): string {
  if (typeof value !== 'function') return typeof value
  return /^class[\s{]/.test(Function.prototype.toString.call(value)) ? 'class' : 'function'
}

describe('the public API', () => {
  test('fxterm (src/index.ts) exports exactly these values and types', async () => {
    const api: Record<string, unknown> = await import('./index.ts')
    const { values, types } = reExports(source('./index.ts'))
    // Only named re-exports: nothing reaches the module's exports another way.
    expect(Object.keys(api).sort()).toEqual([...values].sort())
    const listed = [...values.map((name) => `${name}: ${kindOf(api[name])}`), ...types.map((name) => `${name}: type`)].sort()
    expect(listed).toEqual(INDEX_API)
  })

  test('fxterm/fx-terminal registers <fx-terminal> and exports exactly these', () => {
    const { values, types } = reExports(source('./page/embed/fx-terminal.ts'))
    expect([...values.map((name) => `${name}: value`), ...types.map((name) => `${name}: type`)].sort()).toEqual(ELEMENT_API)
    const element = source('./page/embed/fx-terminal-element.ts')
    const read = [...element.matchAll(/(?:attr|getAttribute|hasAttribute)\('([a-z-]+)'\)/g)].map(([, name]) => name!)
    expect([...new Set(read)].sort()).toEqual(ELEMENT_ATTRIBUTES)
  })

  test('no test or benchmark seam is part of the public API', () => {
    const { values, types } = reExports(source('./index.ts'))
    expect([...values, ...types].filter((name) => /test|bench|reading|startreads/i.test(name))).toEqual([])
  })

  test('the public options hold no start-up or test seam, and the library guide names none', () => {
    // Checked by the typecheck: the static page's start-up hand-offs and the tests' own workers
    // and storage are taken through createFxTerminal's and createBashWorkspace's internal twins.
    expectTypeOf<Extract<keyof FxTerminalOptions, 'sessionLocks' | 'resumeRead'>>().toEqualTypeOf<never>()
    expectTypeOf<Extract<keyof BashWorkspaceOptions, 'worker'>>().toEqualTypeOf<never>()
    expectTypeOf<keyof NonNullable<BashWorkspaceOptions['persist']>>().toEqualTypeOf<'namespace'>()
    const guide = source('../docs/library.md')
    expect(['sessionLocks', 'resumeRead'].filter((seam) => guide.includes(seam))).toEqual([])
  })
})

const INDEX_API = [
  'BashWorkspace: type',
  'BashWorkspaceOptions: type',
  'BrowserStores: type',
  'ConfigStore: type',
  'CustomProviderConfig: type',
  'ExecInput: type',
  'ExecResult: type',
  'FxAgent: type',
  'FxAgentEvent: type',
  'FxAgentOptions: type',
  'FxAmbiguousCall: type',
  'FxCredentials: type',
  'FxDurability: type',
  'FxEngine: type',
  'FxEngineOptions: type',
  'FxEngineTurn: type',
  'FxError: class',
  'FxFencedError: class',
  'FxImageLimits: type',
  'FxJournalVersionError: class',
  'FxModel: type',
  'FxPromptBlock: type',
  'FxPromptInput: type',
  'FxResizeImage: type',
  'FxResumeOptions: type',
  'FxSession: type',
  'FxSessionOptions: type',
  'FxStopReason: type',
  'FxStreamEvent: type',
  'FxStreamLine: type',
  'FxTerminal: type',
  'FxTerminalOptions: type',
  'FxTool: type',
  'FxToolContext: type',
  'FxToolResult: type',
  'FxTurn: type',
  'FxTurnResult: type',
  'FxUsage: type',
  'JournalRecord: type',
  'ListModelsOptions: type',
  'ModelInfo: type',
  'OAuthSessionStore: type',
  'OpenBrowserStoresOptions: type',
  'PROVIDER_PRESETS: object',
  'Persistence: type',
  'PromptHistoryStore: type',
  'SessionStore: type',
  'SignInOptions: type',
  'TerminalAdapter: type',
  'WorkspaceAdapter: type',
  'WorkspaceInfo: type',
  'createBashWorkspace: function',
  'createFxAgent: function',
  'createFxEngine: function',
  'createFxTerminal: function',
  'createMemoryPersistence: function',
  'encodeXtermKeyEvent: function',
  'guardStore: function',
  'idbConfigStore: function',
  'idbKeyStore: function',
  'idbOAuthSessionStore: function',
  'idbPromptHistoryStore: function',
  'idbSessionStore: function',
  'indexedDb: function',
  'listModels: function',
  'memory: function',
  'memoryConfigStore: function',
  'memoryOAuthSessionStore: function',
  'memoryPromptHistoryStore: function',
  'memorySessionStore: function',
  'openBrowserStores: function',
  'preloadEngine: function',
  'resizeImageInBrowser: function',
  'spawnEngineWorker: function',
  'supportsJspi: function',
  'xtermAdapter: function',
]

const ELEMENT_API = ['FxTerminalElement: value', 'defineFxTerminal: value']

const ELEMENT_ATTRIBUTES = ['autofocus', 'demo', 'files', 'height', 'model', 'namespace', 'provider', 'readonly', 'theme']
