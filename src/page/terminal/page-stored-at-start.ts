/**
 * What the engine restores at start-up — settings, prompt history, AGENTS.md and the session
 * `--resume` names — read while engine.wasm loads (none of these reads reject). The engine
 * never waits for them: it starts with `restorePending` and they follow in a restore. When they
 * have all answered by the time the engine starts (the page read them early), it boots with them
 * instead: one frame, and no restore hop across the worker boundary.
 */
import type { StoredState } from '../../engine-worker/host/host-loop.ts'
import type { ResumeSession, WorkerStartConfig } from '../../shared/messages/worker-api.ts'

export type StoredAtStart = { state: StoredState; session?: ResumeSession }

export type StartReads = {
  config: Promise<Record<string, string>>
  history: Promise<string[]>
  resume: Promise<{ session?: ResumeSession; notice?: string }>
  agents: Promise<{ text: string; notices: string[] }>
}

export type StoredOptions = {
  /** A provider or model named by the page for this load wins over the saved choice. */
  pageChoosesModel: boolean
  screenReader: boolean
}

/** The reads as the engine takes them; `now()` is the answer if every read is already in. */
export function storedAtStart(reads: StartReads, options: StoredOptions): { later: Promise<StoredAtStart>; now(): StoredAtStart | null } {
  let answered: StoredAtStart | null = null
  const later = Promise.all([reads.config, reads.history, reads.resume, reads.agents]).then(([stored, history, resumed, agents]) => {
    const config = { ...stored }
    if (options.pageChoosesModel) {
      delete config['provider']
      delete config['model']
    }
    if (options.screenReader) config['a11y'] = 'on'
    const notices = [...agents.notices, ...(resumed.notice ? [resumed.notice] : [])]
    const state: StoredState = { config, history, notices, ...(agents.text ? { instructions: agents.text } : {}) }
    return (answered = { state, ...(resumed.session ? { session: resumed.session } : {}) })
  })
  return { later, now: () => answered }
}

/** The start config's stored part: all of it when `ready`, else a `restorePending` start. */
export function storedStartFields(ready: StoredAtStart | null, notices: string[]): Pick<WorkerStartConfig, 'notices' | 'history' | 'config' | 'instructions' | 'resume' | 'restorePending'> {
  if (!ready) return { notices, history: [], restorePending: true }
  return {
    config: ready.state.config,
    history: ready.state.history,
    notices: [...notices, ...ready.state.notices],
    ...(ready.state.instructions ? { instructions: ready.state.instructions } : {}),
    ...(ready.session ? { resume: ready.session } : {}),
  }
}
