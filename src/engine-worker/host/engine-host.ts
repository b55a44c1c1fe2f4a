/**
 * The engine worker's host, loaded by its entry (engine-worker.ts): loads engine.wasm, picks the
 * model provider, and runs the host loop. Everything the engine asks for happens here (fetch and
 * SSE parsing, timers), except command execs, which go to the workspace through the main thread.
 */
import * as Comlink from 'comlink'
import { ErrorCode, fxFailure } from '../../shared/errors.ts'
import { linkProviderName, resolveProviders, type ResolveProvidersOptions } from '../providers/provider-registry.ts'
import { type AddedProvider, asCustomProviders, nameForServer, parseAddedProviders, refuseAddedProvider, typedServerUrl, withAddedProvider } from '../providers/added-providers.ts'
import type { ModelProvider } from '../../shared/protocol/model-events.ts'
import { refuseBaseUrl } from '../providers/provider-settings.ts'
import { createLinkConsent, type LinkConsent } from '../providers/link-consent.ts'
import { isLoopbackHost } from '../providers/loopback-host.ts'
import { demoWorkspaceOver } from '../providers/demo-files.ts'
import { browserRefusalFor } from '../providers/cloud-presets.ts'
import type { BootProvider, HostAction } from '../../shared/messages/engine-frames.ts'
import { createHostFetch } from './host-fetch.ts'
import { createHostLoop, type HostLoop, type SessionHost } from './host-loop.ts'
import { createOutputBatcher } from './output-batcher.ts'
import { createWorkerAuth, type WorkerAuth } from './worker-auth.ts'
import { takeStartSession } from './worker-start-reads.ts'
import { preloadEngine } from './preload-engine.ts'
import { markPhase, startUpMarks } from '../../shared/start-up-timeline.ts'
import type { EngineInstance } from './engine-instance.ts'
import type { EngineWorkerApi, HostCallbacks, ResumeSession, StartResult, WorkerStartConfig } from '../../shared/messages/worker-api.ts'
import { createSessionWrites, type SessionWrites } from './worker-session-writes.ts'

let loop: HostLoop | null = null
/** `keys()` calls the engine has been fed, told with every frame (HostCallbacks.write). */
let keysSeen = 0
let pending: Array<(l: HostLoop) => void> = []
/** Sign-in: runs /login, /logout and /key; holds tokens and keys (never given to the engine). */
let auth: WorkerAuth | null = null
/** The question before the first request to a server a link named (`?baseUrl=`); this tab's answer only. */
let consent: LinkConsent | null = null
const keyText = new TextDecoder()
/** Posts the output gathered so far; resolves once the page has handed it to the terminal. */
let flushOutput: () => Promise<void> = () => Promise.resolve()
let hostCallbacks: Comlink.Remote<HostCallbacks> | null = null
/** The servers added with /provider add (stored in the configStore as `providers`). */
let added: AddedProvider[] = []
/** Builds providers the way the start did (same fetch, keys and origin), for ones added later. */
let buildAdded: (list: AddedProvider[]) => Array<{ provider: ModelProvider; entry: BootProvider }> = () => []
/** Where the engine's snapshots are written (worker-session-writes.ts); made by `start`. */
let writes: SessionWrites | null = null
/** The page's `sessionsWrittenHere`, should it come before `start` made `writes`. */
let writtenHere: { namespace: string | undefined } | null | undefined

/**
 * Sessions and prompt history go to the page, which owns the stores, except the snapshots written
 * here to fxterm's own session store (worker-session-writes.ts). A snapshot for the page is moved
 * there (the host loop keeps its own copy to restore a restarted engine), so the page's main
 * thread, where typing is echoed, never copies megabytes itself.
 */
function sessionHost(host: Comlink.Remote<HostCallbacks>, sessions: SessionWrites): SessionHost {
  return {
    commit: (bytes) => sessions.commit(bytes),
    list: () => host.sessionList(),
    open: async (id) => {
      const opened = await host.sessionOpen(id)
      if (opened) sessions.opened(id, opened.revision)
      return opened && { bytes: opened.bytes, readOnly: opened.readOnly }
    },
    remove: (id) => {
      sessions.removed(id)
      void host.sessionRemove(id)
    },
    historyAppend: (value) => void host.historyAppend(value),
    historyClear: () => void host.historyClear(),
  }
}

type Opened = { resume?: { bytes: Uint8Array; readOnly: boolean; decoded?: boolean }; engine?: EngineInstance }

/**
 * `resume` with its bytes: those this worker read at start-up when it names them by id, with the
 * engine that already decoded them (worker-decode-ahead.ts) when there is one.
 */
async function openResume(resume: ResumeSession | undefined): Promise<Opened> {
  if (!resume) return {}
  if (resume.stored) writes?.opened(resume.stored.id, resume.stored.revision)
  if ('bytes' in resume) return { resume }
  const read = await takeStartSession(resume.prefetchedId)
  if (!read) return {}
  return { resume: { bytes: read.bytes, readOnly: resume.readOnly, decoded: read.engine !== null }, ...(read.engine ? { engine: read.engine } : {}) }
}

/** The provider a base URL setting names, unless it is a preset's (see resolveProviders). */
function linkedProviderName(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined || baseUrl.trim() === '' || refuseBaseUrl(baseUrl.trim()) !== undefined) return undefined
  return linkProviderName(baseUrl.trim())
}

async function compile(wasm: WorkerStartConfig['wasm']): Promise<WebAssembly.Module> {
  if (wasm instanceof WebAssembly.Module) return wasm
  if (wasm instanceof ArrayBuffer) return WebAssembly.compile(wasm)
  // Compiled once per URL: the start-up reads may have begun it (worker-decode-ahead.ts).
  return preloadEngine(String(wasm))
}

const api: EngineWorkerApi = {
  async start(config: WorkerStartConfig, hostProxy: HostCallbacks): Promise<StartResult> {
    const host = hostProxy as unknown as Comlink.Remote<HostCallbacks>
    hostCallbacks = host
    writes = createSessionWrites(host, config.sessionsHere === true)
    if (writtenHere !== undefined) writes.decide(writtenHere)
    markPhase('engine-boot', 'start')
    let module: WebAssembly.Module
    try {
      module = await compile(config.wasm)
    } catch (error) {
      return fxFailure(ErrorCode.FX_ENGINE_LOAD_FAILED, error instanceof Error ? error.message : String(error))
    }
    // Every provider's API root by name, filled as providers are built: /key binds a key there.
    const baseUrls = new Map<string, string>()
    const linked = new Set<string>()
    auth = createWorkerAuth(config, host, {
      baseUrlOf: (name) => baseUrls.get(name),
      legacyBaseUrlOf: (name) => (linked.has(name) ? undefined : baseUrls.get(name)),
    })
    const ring = auth.keys
    added = parseAddedProviders(config.config?.['providers'])
    const shared: ResolveProvidersOptions = {
      env: {},
      ...(config.useHostFetch ? { fetch: createHostFetch(host) } : {}),
      keys: (name, url) => ring.load(name, url),
      proxied: config.useHostFetch,
    }
    buildAdded = (list) => {
      const built = resolveProviders({ ...shared, providers: asCustomProviders(list) })
      for (const { name, baseUrl } of list) baseUrls.set(name, baseUrl)
      return list.flatMap(({ name }) => {
        const provider = built.providers.find((p) => p.name === name)
        const summary = built.summaries.find((s) => s.name === name)
        return provider && summary ? [{ provider, entry: { name, label: provider.label, model: provider.defaultModel, baseUrl: summary.baseUrl, key: summary.key, added: true } }] : []
      })
    }
    const { providers, active, notice, summaries } = resolveProviders({
      env: config.provider.env,
      ...(config.provider.baseUrl ? { baseUrl: config.provider.baseUrl } : {}),
      ...(config.provider.model ? { model: config.provider.model } : {}),
      ...(config.provider.apiKey ? { apiKey: config.provider.apiKey } : {}),
      ...(config.useHostFetch ? { fetch: createHostFetch(host) } : {}),
      providers: [...(config.customProviders ?? []), ...asCustomProviders(added)],
      ...(config.modelCatalog ? { modelCatalog: config.modelCatalog } : {}),
      demoTapeUrl: config.provider.demoTapeUrl,
      demoWorkspace: demoWorkspaceOver((id, request) => host.exec(id, request), config.workspaceCwd),
      keys: (name, url) => ring.load(name, url),
      proxied: config.useHostFetch,
    })
    for (const { name, baseUrl } of summaries) if (baseUrl !== '') baseUrls.set(name, baseUrl)
    const linkedName = linkedProviderName(config.provider.baseUrl ?? config.provider.env['FX_BASE_URL'])
    if (linkedName !== undefined) linked.add(linkedName)
    const linkedAt = linkedName === undefined ? -1 : providers.findIndex((p) => p.name === linkedName)
    // A server on this machine keeps the prompts on it: only another host is asked about.
    if (config.provider.confirm && linkedAt >= 0 && !isLoopbackHost(new URL(baseUrls.get(linkedName!)!).hostname)) {
      const say = (text: string, level: 'info' | 'warning' | 'error') => (loop ? loop.notice({ text, level }) : pending.push((l) => l.notice({ text, level })))
      consent = createLinkConsent({ origin: new URL(baseUrls.get(linkedName!)!).origin, say })
      providers[linkedAt] = consent.guard(providers[linkedAt]!)
    }
    auth.addTo(providers)
    const summary = new Map(summaries.map((s) => [s.name, s]))
    const provider = providers.find((p) => p.name === active) ?? providers[0]!
    const model = provider.defaultModel
    // The echo hint travels with the output it describes, so the page never applies it early.
    let echoColumns = 0
    let lastWrite: Promise<void> = Promise.resolve()
    const batcher = createOutputBatcher((bytes) => {
      lastWrite = host.write(Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]), echoColumns, keysSeen)
    })
    flushOutput = () => {
      batcher.flush()
      return lastWrite.catch(() => {})
    }
    const opened = await openResume(config.resume)
    loop = await createHostLoop({
      module,
      ...(config.streamIdleTimeoutMs !== undefined ? { streamIdleTimeoutMs: config.streamIdleTimeoutMs } : {}),
      boot: {
        cols: config.cols,
        rows: config.rows,
        provider: provider.name,
        providers: providers.map((p) => ({
          name: p.name,
          label: p.label,
          model: p.defaultModel,
          baseUrl: summary.get(p.name)?.baseUrl ?? '',
          key: summary.get(p.name)?.key ?? 'not_needed',
          // An API that refuses browser pages works only through the app's fetch (a proxy).
          ...(!config.useHostFetch && browserRefusalFor(p.name) !== undefined ? { proxy: true } : {}),
        })),
        model,
        config: config.config ?? {},
        ...(config.maxSteps ? { maxSteps: config.maxSteps } : {}),
        tools: config.workspaceCwd !== null,
        cwd: config.workspaceCwd ?? '/',
        notices: [...config.notices, ...(notice ? [notice] : []), ...(auth.notice ? [auth.notice] : [])],
        ...auth.bootFields,
        args: config.args,
        ...(config.permission ? { permission: config.permission } : {}),
        ...(config.instructions ? { instructions: config.instructions } : {}),
        ...(config.toolDescription ? { toolDescription: config.toolDescription } : {}),
        ...(config.fileTools ? { fileTools: true } : {}),
        sessions: config.sessions,
        history: config.history,
        ...(config.restorePending ? { restorePending: true } : {}),
      },
      sessions: sessionHost(host, writes),
      ...opened,
      providers,
      workspace: config.workspaceCwd === null ? null : { exec: (id, request) => host.exec(id, request), cancel: (id) => void host.cancelExec(id), workspaceOp: (request) => host.workspaceOp(request) },
      write: (bytes) => batcher.push(bytes),
      flushWrites: () => batcher.flush(),
      onEvent: (event) => void host.event(event),
      onAction: (action) => (action.action === 'provider_add' ? addProvider(action) : action.action === 'provider_remove' ? removeProvider(action.name) : void host.action(action)),
      onClipboard: (text) => void host.clipboard(text),
      onConfig: (id, value) => void host.config(id, value),
      onAuth: (action, provider) => auth?.controller.handle(action, provider),
      onRestarted: () => auth?.engineRestarted(),
      onEchoHint: (columns) => {
        echoColumns = columns
      },
      onExit: (code) => {
        batcher.flush()
        void host.exit(code)
      },
    })
    for (const fn of pending) fn(loop)
    pending = []
    auth.attach(loop)
    markPhase('engine-boot', 'end')
    // This worker's start-up marks, for the page's timeline (start-up-timeline.ts).
    return { ok: true, provider: provider.label, model, timeline: startUpMarks() }
  },
  keys(bytes) {
    // While /key is typed, the keys go to the sign-in side only: the engine never sees a key.
    // While a link's server is asked about, they are the answer.
    if (auth?.captureKeys(bytes) || consent?.captureKeys(keyText.decode(bytes))) {
      keysSeen++
      return
    }
    // Counted once fed: the engine's output for them is then in the batcher, so a frame posted
    // later has seen them (the page redraws its echo of the ones it has not, local-echo.ts).
    const feed = (l: HostLoop) => {
      l.keys(bytes)
      keysSeen++
    }
    if (loop) feed(loop)
    else pending.push(feed)
  },
  prompt(text) {
    if (loop) loop.prompt(text)
    else pending.push((l) => l.prompt(text))
  },
  async resize(cols, rows) {
    if (!loop) {
      pending.push((l) => l.resize(cols, rows))
      return
    }
    loop.resize(cols, rows)
    // Answer only once the frame drawn for this size is in the terminal's queue: the page holds
    // its next resize until then, so no frame is ever parsed at a size it was not drawn for.
    await flushOutput()
  },
  notice(notice) {
    if (loop) loop.notice(notice)
    else pending.push((l) => l.notice(notice))
  },
  configChanged(id, value) {
    // Another tab added a server: offer it here too. The engine keeps no such setting itself.
    const apply = (l: HostLoop) => {
      if (id !== 'providers') return l.configChanged(id, value)
      const fresh = parseAddedProviders(value).filter((p) => !added.some((a) => a.name === p.name && a.baseUrl === p.baseUrl && a.wire === p.wire))
      if (fresh.length === 0) return
      added = fresh.reduce(withAddedProvider, added)
      l.addProviders(buildAdded(fresh))
    }
    if (loop) apply(loop)
    else pending.push(apply)
  },
  async restore(stored, session) {
    // The engine is booted already: it decodes the bytes itself (an engine that decoded them
    // ahead, if any, goes unused).
    const { resume } = await openResume(session)
    const plain = resume ? { bytes: resume.bytes, readOnly: resume.readOnly } : undefined
    // Servers added on an earlier visit come first: the stored `provider` may name one.
    const remembered = parseAddedProviders(stored.config['providers']).filter((p) => !added.some((a) => a.name === p.name))
    const restoreAll = (l: HostLoop) => {
      if (remembered.length > 0) {
        added = [...added, ...remembered]
        l.addProviders(buildAdded(remembered))
      }
      l.restore(stored, plain)
    }
    if (loop) restoreAll(loop)
    else pending.push(restoreAll)
    auth?.restored()
  },
  sessionsWrittenHere(where) {
    if (writes) writes.decide(where)
    else writtenHere = where
  },
  signedOutElsewhere() {
    auth?.signedOutElsewhere()
  },
  signedInElsewhere() {
    auth?.signedInElsewhere()
  },
  dispose() {
    loop?.dispose()
    loop = null
  },
}

/**
 * `/provider add <name> <baseUrl> [anthropic]`, or a URL typed after the picker's "another
 * server" (no name: named after its host): checked here (the engine knows no URL rules),
 * remembered in the configStore, and handed to the engine, which lists it and switches to it.
 */
function addProvider(action: Extract<HostAction, { action: 'provider_add' }>): void {
  const l = loop
  if (!l) return
  const typed = action.name === ''
  const baseUrl = typed ? typedServerUrl(action.baseUrl) : action.baseUrl
  const wire = action.wire === 'anthropic' ? 'anthropic' : 'openai'
  const builtIn = (candidate: string) => l.providerNames().includes(candidate) && !added.some((a) => a.name === candidate)
  const sameServer = added.find((a) => a.baseUrl === baseUrl.replace(/\/+$/, '') && a.wire === wire)
  const name = !typed ? action.name : (sameServer?.name ?? nameForServer(baseUrl, (n) => l.providerNames().includes(n)))
  const refusal = refuseAddedProvider(name, baseUrl, builtIn)
  if (refusal !== undefined) {
    l.notice({ text: typed ? `That URL cannot be used: ${refusal}. Run /model and choose "another server" to try again.` : `/provider add: ${refusal}.`, level: 'error' })
    return
  }
  const entry: AddedProvider = { name, baseUrl: baseUrl.replace(/\/+$/, ''), wire }
  added = withAddedProvider(added, entry)
  void hostCallbacks?.config('providers', JSON.stringify(added))
  l.notice({ text: `Added ${name} (${entry.baseUrl}, ${wire === 'anthropic' ? 'Anthropic Messages' : 'OpenAI-compatible'}). /provider remove ${name} forgets it.`, level: 'info' })
  l.addProviders(buildAdded([entry]), name)
}

/** `/provider remove <name>`: the engine has dropped it already; its address and key are forgotten here. */
function removeProvider(name: string): void {
  if (!added.some((a) => a.name === name)) return
  added = added.filter((a) => a.name !== name)
  void hostCallbacks?.config('providers', JSON.stringify(added))
  loop?.removeProvider(name)
  void auth?.keys.clear(name)
}

/** Serves the page's calls (EngineWorkerApi) on `endpoint`. */
export function exposeEngine(endpoint: Comlink.Endpoint): void {
  Comlink.expose(api, endpoint)
}
