/**
 * Sign-in on the static page: Vercel's issuer by default (which needs the app's client id, so
 * /login says what is missing), the sign-in and a /key key sealed in IndexedDB, and the
 * verification page opened in a new tab. For local development and the end-to-end tests, a
 * loopback issuer may be named in the URL (`?issuer=http://127.0.0.1:…`), and with it a loopback
 * model API its tokens go to (`&signInModel=…`): nothing off this machine is ever taken from the
 * URL, so a link cannot send a person to sign in somewhere else.
 */
import { idbKeyStore } from '../stores/idb-key-store.ts'
import type { SignInOptions } from '../../engine-worker/auth/issuer-config.ts'
import { isLoopbackHost } from '../../engine-worker/providers/loopback-host.ts'

export type AppSignIn = {
  signIn?: SignInOptions & { modelBaseUrl?: string }
  keyStore: ReturnType<typeof idbKeyStore>
  openUrl(url: string): boolean
  /** Every URL openUrl was asked to open (read by the end-to-end tests). */
  openedUrls: string[]
}

function loopback(value: string | null): string | undefined {
  if (!value) return undefined
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname) ? url.href.replace(/\/$/, '') : undefined
  } catch {
    return undefined
  }
}

export function appSignIn(params: URLSearchParams, namespace: string): AppSignIn {
  const openedUrls: string[] = []
  const issuer = loopback(params.get('issuer'))
  const modelBaseUrl = loopback(params.get('signInModel'))
  return {
    ...(issuer ? { signIn: { issuer, clientId: 'fxterm-dev', ...(modelBaseUrl ? { modelBaseUrl } : {}) } } : {}),
    keyStore: idbKeyStore({ namespace }),
    openedUrls,
    openUrl(url) {
      openedUrls.push(url)
      return window.open(url, '_blank', 'noopener,noreferrer') !== null
    },
  }
}
