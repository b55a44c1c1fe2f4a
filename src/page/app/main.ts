/**
 * The static page: a full-window terminal running fxterm over the bash workspace seeded with the
 * demo project. `?baseUrl=…&model=…` points it at an OpenAI-compatible server (a key is never
 * read from the URL). Settings, prompt history and sessions are kept in IndexedDB, and a reload
 * resumes the latest session. Exposes `window.fxterm = { term, runtime, workspace }` for
 * debugging and automation.
 *
 * Opened by the page's start-up (src/page/start-up/page-start-up.ts) with what its early start
 * began: the engine worker and the stores.
 */
import '@xterm/xterm/css/xterm.css'
import type { FxTerminal } from '../terminal/create-fx-terminal.ts'
import { createBashWorkspace } from '../workspace/create-bash-workspace.ts'
import { DEMO_WORKSPACE_FILES } from './demo-workspace-files.ts'
import { themeMode } from '../terminal/themes.ts'
import { mountFxTerminal } from '../embed/mount-terminal.ts'
import { followVisualViewport } from '../terminal/visual-viewport.ts'
import type { Terminal } from '@xterm/xterm'
import { appSignIn } from './app-sign-in.ts'
import { createKeyRing } from '../../engine-worker/auth/key-store.ts'
import { GITHUB_KEY_NAME } from '../../shared/workspace/git/git-host.ts'
import { keepOfflineShell } from './offline-shell.ts'
import { PAGE_NAMESPACE } from './page-namespace.ts'
import { noteHeldSession, noteSavedSessions } from './page-saved-sessions-flag.ts'
import type { StartReadsAnswer } from '../../shared/messages/start-reads-message.ts'
import type { EarlyLock } from '../terminal/session-locks.ts'
import type { BrowserStores } from '../stores/open-browser-stores.ts'
import type { AsyncConfigStore, AsyncPromptHistoryStore } from '../../shared/stores/types.ts'

/** Opens the terminal on the page, its engine in `started.engineWorker`. */
export function openApp(started: Started): void {
  const params = new URLSearchParams(location.search)
  const container = document.getElementById('terminal')!
  // A phone's keyboard covers the bottom of the window: the terminal (composer and key row with it)
  // shrinks to the part still visible.
  followVisualViewport(container)

  const baseUrl = params.get('baseUrl') ?? undefined
  /** ?streamIdleTimeoutMs=<ms>: how long a model stream may go without progress (tests shorten it). */
  const streamIdleTimeoutMs = Number(params.get('streamIdleTimeoutMs') ?? Number.NaN)
  const model = params.get('model') ?? undefined
  /** ?demo=<tape URL> plays another demo tape (the default is demos/tour.json). */
  const demo = params.get('demo')
  // A tape named by ?demo= also seeds the workspace with the files it was recorded on.
  // The files are kept with each session, so a reload brings back the work as well as the talk.
  const signIn = appSignIn(params, PAGE_NAMESPACE)
  // git's GitHub token (/key github), read at each request and given only for its own origin.
  const keyRing = createKeyRing(signIn.keyStore)
  const workspace = createBashWorkspace({
    files: DEMO_WORKSPACE_FILES,
    persist: { namespace: PAGE_NAMESPACE },
    ...(params.get('demo') ? { filesUrl: new URL(params.get('demo')!, location.href).href } : {}),
    git: { githubToken: (url) => keyRing.load(GITHUB_KEY_NAME, url) },
  })
  /** The last 500 onEvent payloads, for debugging (and the end-to-end leak scan). */
  const events: unknown[] = []
  // ?theme=light|dark|auto (auto follows the system's setting live); the page's margin follows too.
  const { term, runtime } = mountFxTerminal(container, {
    theme: themeMode(params.get('theme')),
    onTheme: (_name, theme) => {
      document.documentElement.style.background = theme.background ?? ''
      document.body.style.background = theme.background ?? ''
    },
    // engine.wasm (the default URL) is compiled by the engine worker: create-fx-terminal.ts says why.
    createWorker: () => started.engineWorker,
    workspace,
    // A reload continues where the person left off; /new starts fresh.
    args: ['--resume', 'last'],
    screenReader: params.get('a11y') === 'on',
    namespace: PAGE_NAMESPACE,
    // The lock page-first-script.ts claimed; the session locked last is the one it claims next time.
    sessionLocks: { ...(started.earlyLock ? { early: started.earlyLock } : {}), onHeld: noteHeldSession },
    // The worker page-first-script.ts started has read the session `--resume last` restores.
    resumeRead: started.startReads.then((reads) => reads?.session),
    configStore: started.configStore,
    promptHistoryStore: started.historyStore,
    sessionStore: started.stores.sessions,
    oauthSessionStore: started.stores.oauth,
    keyStore: signIn.keyStore,
    openUrl: signIn.openUrl,
    ...(signIn.signIn ? { signIn: signIn.signIn } : {}),
    onEvent: (event) => {
      if (events.push(event) > 500) events.shift()
      // A prompt was accepted (so committed) or a session resumed: the next load has one to resume.
      if (event.type === 'turn_start' || event.type === 'session.resumed') noteSavedSessions()
    },
    ...(demo ? { demoTapeUrl: demo } : {}),
    ...(streamIdleTimeoutMs > 0 ? { streamIdleTimeoutMs } : {}),
    // A server named by a link is asked about before the first request goes there (this tab only).
    ...(baseUrl || model ? { provider: { ...(baseUrl ? { baseUrl, confirm: true } : {}), ...(model ? { model } : {}) } } : {}),
  })
  const debugHandle: { term: Terminal; runtime: FxTerminal; workspace: typeof workspace; openedUrls: string[]; events: unknown[] } = {
    term,
    runtime,
    workspace,
    openedUrls: signIn.openedUrls,
    events,
  }
  Object.assign(window, { fxterm: debugHandle })
  term.focus()
  void runtime.interactive.then(() => {
    performance.mark('fxterm:interactive')
    // The shell and Python take a second or more to start: they start once the page is idle, so
    // a first command or python3 does not wait for them (the terminal's start-up is over by then).
    // Python not where the person asked the browser to save data: it is about 19 MB, fetched
    // whether or not python3 is run.
    const saveData = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true
    whenIdle(() => {
      const loads = [workspace.prepareShell(), ...(saveData ? [] : [workspace.preparePython()])]
      // Keeping the app for visits with no network (3 MB copied, and Python's 19 MB once fetched)
      // waits until those loads are in: on two cores, beside Python's first load, it made a
      // python3 run right at interactive 13 % slower.
      void Promise.race([Promise.allSettled(loads), new Promise((go) => setTimeout(go, OFFLINE_SHELL_LATEST_MS))]).then(() =>
        whenIdle(keepOfflineShell),
      )
    })
  })
  void started.storesOpening.then((opened) => opened.notice && runtime.notice(opened.notice, 'warning'))
  void runtime.exited.then(() => term.blur())
}

/** A load that never settles (a hung worker) holds the offline shell back no longer than this. */
const OFFLINE_SHELL_LATEST_MS = 30_000

/** `run` once the page's thread is idle (at once where requestIdleCallback is missing: Safari). */
function whenIdle(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 })
  else setTimeout(run, 0)
}

/** What the terminal is opened with (main.ts). */
export type Started = {
  engineWorker: Worker
  /** What the engine worker read at start-up: the session to resume (by id), settings, history. */
  startReads: Promise<StartReadsAnswer | null>
  /** The session lock the first script claimed, for the session bridge to take over. */
  earlyLock: EarlyLock | undefined
  storesOpening: Promise<BrowserStores>
  stores: Pick<BrowserStores, 'config' | 'history' | 'sessions' | 'oauth'>
  configStore: AsyncConfigStore
  historyStore: AsyncPromptHistoryStore
}
