/**
 * The page's side of sign-in: the app's oauthSessionStore and key store served to the worker
 * (in memory when the app gave none: the sign-in then lasts as long as the tab), the app's
 * `openUrl`, and a sign-in or sign-out told to the other tabs.
 */
import { memoryOAuthSessionStore } from '../stores/memory-stores.ts'
import type { OAuthSessionStore } from '../../shared/stores/types.ts'
import type { TabSync } from './tab-sync.ts'
import { serveSealedStores, type SealedStoreHost } from '../../engine-worker/auth/sealed-store-bridge.ts'

export type PageAuthOptions = {
  oauthSessionStore?: OAuthSessionStore
  /** Where /key keeps a key (sealed); without one, /key cannot save. */
  keyStore?: OAuthSessionStore
  openUrl?: (url: string) => boolean | Promise<boolean>
}

export type PageAuth = SealedStoreHost & {
  openUrl(url: string): Promise<boolean>
  signedOut(): void
  signedIn(): void
}

export function createPageAuth(options: PageAuthOptions, tabs: TabSync): PageAuth {
  const stores = serveSealedStores({ oauth: options.oauthSessionStore ?? memoryOAuthSessionStore(), key: options.keyStore ?? null })
  return {
    ...stores,
    async openUrl(url) {
      if (!options.openUrl) return false
      try {
        return (await options.openUrl(url)) !== false
      } catch {
        return false
      }
    },
    signedOut: () => tabs.post({ type: 'signed_out' }),
    signedIn: () => tabs.post({ type: 'signed_in' }),
  }
}
