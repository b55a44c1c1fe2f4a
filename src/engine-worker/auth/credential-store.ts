/**
 * The signed-in session over the app's oauthSessionStore: token records in, opaque bytes out,
 * with the revision of the last read or write remembered. The first commit names no revision; a
 * stale one (another tab wrote meanwhile) is read again and retried once.
 */
import { ErrorCode } from '../../shared/errors.ts'
import type { OAuthSessionStore } from '../../shared/stores/types.ts'
import { decodeRecord, encodeRecord, type TokenRecord } from './token-record.ts'

export type CredentialStore = {
  /** The stored record (read fresh every time: another tab may have changed it). */
  load(): Promise<TokenRecord | null>
  /** Stores `record`; `replacing` is the record this one follows (a refresh), if any. */
  save(record: TokenRecord): Promise<void>
  /** Forgets the stored record; true when there was one. */
  clear(): Promise<boolean>
}

export function isRevisionConflict(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === ErrorCode.FX_OAUTH_SESSION_REVISION_CONFLICT
}

export function createCredentialStore(store: OAuthSessionStore): CredentialStore {
  let lastRevision: string | undefined

  const load = async (): Promise<TokenRecord | null> => {
    const found = await store.load()
    lastRevision = found?.revision
    return found ? decodeRecord(found.bytes) : null
  }

  const once = async <T>(attempt: () => Promise<T>): Promise<T> => {
    try {
      return await attempt()
    } catch (error) {
      if (!isRevisionConflict(error)) throw error
      await load()
      return attempt()
    }
  }

  return {
    load,
    save: (record) =>
      once(async () => {
        const { revision } = await store.commit(encodeRecord(record), lastRevision)
        lastRevision = revision
      }),
    clear: () =>
      once(async () => {
        const answer = await store.remove(lastRevision)
        lastRevision = undefined
        return answer !== false && answer !== 'missing'
      }),
  }
}
