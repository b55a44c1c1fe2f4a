/**
 * The worker's side of /login, /logout and /key: runs the device flow, keeps tokens and keys in
 * their stores, opens the verification page through the app's `openUrl`, captures a key while it
 * is typed, and tells the engine only what to show (`AuthDisplayState`: never a token or key).
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { AuthAction, AuthDisplayState, HostNotice } from '../../shared/messages/engine-frames.ts'
import { quoteForMessage } from '../providers/mask-secrets.ts'
import type { AccountCredentials } from './account-credentials.ts'
import { isSignInError } from './auth-errors.ts'
import { runDeviceFlow } from './device-flow.ts'
import { DEFAULT_SCOPE, resolveEndpoints, type SignInOptions } from './issuer-config.ts'
import { createKeyCapture, type KeyCapture } from './key-capture.ts'
import { type KeyRing, type KeyStore, LEGACY_KEY_PROVIDER } from './key-store.ts'

export type AuthControllerOptions = {
  signIn: SignInOptions
  credentials: AccountCredentials
  keys: KeyStore
  /** Every provider's key; /key <provider> saves there. Without it only the account's key is kept. */
  ring?: KeyRing
  /** A provider's API root: a key saved for it is bound to that origin and sent nowhere else. */
  baseUrlOf?: (provider: string) => string | undefined
  fetch: () => typeof fetch
  /** The app's openUrl; false or a throw leaves the printed URL as the way in. */
  openUrl: (url: string) => Promise<boolean>
  show: (state: AuthDisplayState) => void
  notice: (notice: HostNotice) => void
  /**
   * Why a key for `provider` would be of no use on this page (its API refuses browser pages and
   * no proxy carries the requests), or undefined. /key then says so instead of asking for one.
   */
  refuses?: (provider: string) => string | undefined
  /** This tab signed out: tell the others. */
  onSignedOut: () => void
  /** This tab signed in: tell the others. */
  onSignedIn?: () => void
  now?: () => number
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

export type AuthController = {
  /** `provider`: whose key `key` and `key_clear` are about (default the account's). */
  handle(action: AuthAction, provider?: string): void
  /** Tells the engine which providers have a saved key. */
  showSavedKeys(): void
  /** Takes terminal input while a key is typed; false when the input is not for it. */
  captureKeys(data: string): boolean
  /** Another tab signed out: show what this tab's account provider has now. */
  credentialChanged(message?: string): void
  /** Another tab signed in: use the account here too. */
  signedInElsewhere(): void
}

/** Waits `ms`, rejecting when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'))
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      reject(new Error('aborted'))
    }, { once: true })
  })
}

export function createAuthController(options: AuthControllerOptions): AuthController {
  const { credentials, keys, show } = options
  let flow: AbortController | null = null
  let openable: string | null = null
  let capture: { entry: KeyCapture; provider: string } | null = null
  /** The store for `provider`'s key: the account's own store for AI Gateway. */
  const storeFor = (provider: string): KeyStore =>
    provider === LEGACY_KEY_PROVIDER || !options.ring ? keys : options.ring.forProvider(provider, options.baseUrlOf?.(provider) ?? '')
  const showSavedKeys = () => {
    void options.ring?.names().then((saved) => show({ state: 'keys', saved }), () => {})
  }

  /** A failure as one masked line (a store or a bug may say anything). */
  const describe = (error: unknown): string => {
    const text = error instanceof Error ? error.message : String(error)
    return credentials.secrets().reduce((out, secret) => out.split(secret).join('***'), quoteForMessage(text, 300))
  }
  const open = async (url: string) => {
    try {
      await options.openUrl(url)
    } catch {
      // The printed URL is the way in; the app's openUrl failing changes nothing.
    }
  }

  const login = async () => {
    if (flow) return
    const controller = new AbortController()
    flow = controller
    try {
      const clientId = options.signIn.clientId
      if (!clientId) {
        show({ state: 'failed', message: 'sign-in is not set up on this page: the app must pass signIn: { clientId } (the OAuth client id its issuer gave it). /key saves an API key instead.' })
        return
      }
      show({ state: 'preparing' })
      const endpoints = await resolveEndpoints(options.signIn, options.fetch(), controller.signal)
      const record = await runDeviceFlow({
        endpoints,
        clientId,
        scope: options.signIn.scope ?? DEFAULT_SCOPE,
        fetch: options.fetch(),
        now: options.now ?? Date.now,
        sleep: options.sleep ?? abortableSleep,
        signal: controller.signal,
        onState: (state) => {
          if (state.state !== 'waiting') return
          show({ state: 'waiting', url: state.verificationUri, code: state.userCode })
          openable = state.verificationUriComplete ?? state.verificationUri
          void open(openable)
        },
      })
      await credentials.signIn(record)
      options.onSignedIn?.()
      show({ state: 'signed_in', credential: 'signed_in' })
    } catch (error) {
      if (controller.signal.aborted || isSignInError(error, ErrorCode.FX_SIGNIN_CANCELLED)) show({ state: 'cancelled' })
      else show({ state: 'failed', message: describe(error) })
    } finally {
      if (flow === controller) flow = null
      openable = null
    }
  }

  const logout = async () => {
    flow?.abort()
    try {
      const { wasSignedIn, warning } = await credentials.signOut()
      if (warning) options.notice({ text: warning, level: 'warning' })
      if (wasSignedIn) options.onSignedOut()
      show({ state: 'signed_out', message: wasSignedIn ? 'Signed out.' : 'You were not signed in.', credential: await credentials.kind() })
    } catch (error) {
      options.notice({ text: `Signing out failed: ${describe(error)}`, level: 'error' })
    }
  }

  const keyClear = async (provider: string) => {
    try {
      const removed = await storeFor(provider).clear()
      const message = removed ? `The key for ${provider} was removed.` : `There was no saved key for ${provider}.`
      show({ state: 'key_cleared', message, provider, credential: await credentials.kind() })
      showSavedKeys()
    } catch (error) {
      options.notice({ text: `The key could not be removed: ${describe(error)}`, level: 'error' })
    }
  }

  const finishKey = async (entry: KeyCapture, provider: string) => {
    try {
      await storeFor(provider).save(entry.value())
      show({ state: 'key_saved', provider, credential: await credentials.kind() })
      showSavedKeys()
    } catch (error) {
      show({ state: 'key_cancelled' })
      options.notice({ text: `The key could not be saved: ${describe(error)}`, level: 'error' })
    }
  }

  return {
    showSavedKeys,
    handle(action, provider = LEGACY_KEY_PROVIDER) {
      if (action === 'login') void login()
      else if (action === 'login_cancel') flow?.abort()
      else if (action === 'login_reopen') {
        if (openable) void open(openable)
      } else if (action === 'logout') void logout()
      else if (action === 'key_clear') void keyClear(provider)
      else if (action === 'key') {
        const refusal = options.refuses?.(provider)
        if (refusal !== undefined) {
          options.notice({ text: refusal, level: 'error' })
          show({ state: 'key_cancelled' })
          return
        }
        capture = { entry: createKeyCapture(), provider }
        show({ state: 'key_entry', length: 0 })
      }
    },
    captureKeys(data) {
      if (!capture) return false
      const { entry, provider } = capture
      const { done } = entry.feed(data)
      if (done === 'cancel') {
        capture = null
        show({ state: 'key_cancelled' })
      } else if (done === 'save') {
        capture = null
        show({ state: 'key_entry', length: entry.length })
        void finishKey(entry, provider)
      } else show({ state: 'key_entry', length: entry.length })
      return true
    },
    signedInElsewhere() {
      show({ state: 'signed_in', message: 'Signed in in another tab.', credential: 'signed_in' })
    },
    credentialChanged(message) {
      void credentials.kind().then((credential) => {
        if (message) show({ state: 'signed_out', message, credential })
        else show({ state: 'credential', credential })
      })
    },
  }
}
