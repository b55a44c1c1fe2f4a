/**
 * A model server named by the page's address (`?baseUrl=` in a link someone sent) is asked about
 * once before anything goes to it: one line says where prompts would go, and `y` sends them, `n`
 * (or Esc, Ctrl+C) sends nothing. The answer lives in this worker only: it is this tab's, never a
 * setting, so it is neither stored nor passed to other tabs, and a reload asks again. A server on
 * this machine (localhost) is not asked about: the prompts do not leave it.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { ModelEvent, ModelProvider } from '../../shared/protocol/model-events.ts'
import { ModelCatalogError } from './list-models.ts'

/** The gate in front of one link-named provider. */
export type LinkConsent = {
  /** The provider with every request held until the person answers. */
  guard(provider: ModelProvider): ModelProvider
  /** Terminal input while the question is open; false when it is not for it (then it is ordinary input). */
  captureKeys(data: string): boolean
}

export type LinkConsentOptions = {
  /** Where the requests would go, as shown (`https://host:port`). */
  origin: string
  /** Shows one line in the terminal. */
  say: (text: string, level: 'info' | 'warning' | 'error') => void
}

type State = 'unasked' | 'asking' | 'yes' | 'no'

export function createLinkConsent(options: LinkConsentOptions): LinkConsent {
  let state: State = 'unasked'
  let answered: Promise<boolean> | null = null
  let settle: (yes: boolean) => void = () => {}
  const declined = `Nothing was sent to ${options.origin}: you answered no. /provider picks another provider; reloading the link asks again.`

  /**
   * The answer; every request waits for the same one. Only a prompt (`ask`) puts the question:
   * the catalog the engine asks for at start-up waits for it quietly, so the question comes right
   * after the person pressed Enter, not while they are typing (a typed `y` would answer it).
   */
  const answer = (ask: boolean): Promise<boolean> => {
    if (state === 'yes' || state === 'no') return Promise.resolve(state === 'yes')
    answered ??= new Promise<boolean>((resolve) => (settle = resolve))
    if (ask && state === 'unasked') {
      state = 'asking'
      options.say(`This page was opened with a link that sends your prompts to ${options.origin}. Send them there? (y/n)`, 'warning')
    }
    return answered
  }
  const decide = (yes: boolean) => {
    state = yes ? 'yes' : 'no'
    options.say(yes ? `Prompts go to ${options.origin} in this tab.` : declined, yes ? 'info' : 'error')
    settle(yes)
  }

  return {
    guard(provider) {
      const list = provider.listModels?.bind(provider)
      return {
        ...provider,
        async stream(request, emit: (event: ModelEvent) => void, signal) {
          if (!(await answer(true))) {
            emit({ type: 'error', code: ErrorCode.FX_MODEL_LINK_DECLINED, message: declined, retryable: false })
            return
          }
          if (!signal.aborted) await provider.stream(request, emit, signal)
        },
        ...(list
          ? {
              async listModels(signal: AbortSignal) {
                if (!(await answer(false))) throw new ModelCatalogError(ErrorCode.FX_MODEL_LINK_DECLINED, declined, false)
                return list(signal)
              },
            }
          : {}),
      }
    },
    captureKeys(data) {
      if (state !== 'asking') return false
      // Every key goes here until the answer: a lone y, or a lone n / Esc / Ctrl+C. A paste that
      // merely contains a y answers nothing.
      if (data === 'y' || data === 'Y') decide(true)
      else if (data === 'n' || data === 'N' || data === '\x1b' || data === '\x03') decide(false)
      return true
    },
  }
}
