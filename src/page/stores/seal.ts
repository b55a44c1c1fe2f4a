/**
 * Sealing for secrets at rest: AES-GCM under a key the page can use but never read. The key is
 * generated non-extractable, so neither script on the page nor anyone reading the IndexedDB files
 * can export it; it is stored in IndexedDB as a `CryptoKey` (structured clone keeps it opaque).
 * A fresh random 12-byte IV per seal: reusing an IV under one GCM key would leak plaintext.
 */
import { ErrorCode, FxError } from '../../shared/errors.ts'

/** What is stored instead of the plain bytes. */
export type SealedBytes = { iv: Uint8Array<ArrayBuffer>; ciphertext: Uint8Array<ArrayBuffer> }

const ALGORITHM = 'AES-GCM'

/** Web Crypto, or undefined where the browser withholds it (pages served over plain http). */
function subtle(): SubtleCrypto | undefined {
  return globalThis.crypto?.subtle
}

function requireSubtle(): SubtleCrypto {
  const found = subtle()
  if (found === undefined) {
    throw new FxError(
      ErrorCode.FX_STORE_CRYPTO_UNAVAILABLE,
      'the sign-in cannot be stored sealed because this page has no Web Crypto (serve it over https or from localhost)',
    )
  }
  return found
}

/** A new non-extractable AES-GCM key for sealing. */
export function generateSealingKey(): Promise<CryptoKey> {
  return requireSubtle().generateKey({ name: ALGORITHM, length: 256 }, false, ['encrypt', 'decrypt'])
}

/** True for a key this module can seal with (what came back from IndexedDB may be anything). */
export function isSealingKey(value: unknown): value is CryptoKey {
  return typeof CryptoKey !== 'undefined' && value instanceof CryptoKey && value.algorithm.name === ALGORITHM
}

/** `bytes` encrypted under `key` with a fresh random IV. */
export async function seal(key: CryptoKey, bytes: Uint8Array<ArrayBuffer>): Promise<SealedBytes> {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const ciphertext = await requireSubtle().encrypt({ name: ALGORITHM, iv }, key, bytes)
  return { iv, ciphertext: new Uint8Array(ciphertext) }
}

/**
 * The plain bytes of `sealed`, or null when they cannot be had: no Web Crypto, another key, or
 * a tampered or truncated record (GCM authenticates, so none of these yields wrong bytes).
 */
export async function unseal(key: CryptoKey, sealed: SealedBytes): Promise<Uint8Array | null> {
  const found = subtle()
  if (found === undefined) return null
  try {
    return new Uint8Array(await found.decrypt({ name: ALGORITHM, iv: sealed.iv }, key, sealed.ciphertext))
  } catch {
    return null
  }
}

/** True for a record of the shape `seal` returns. */
export function isSealedBytes(value: unknown): value is SealedBytes {
  const record = value as Partial<SealedBytes> | null
  return (
    typeof record === 'object' &&
    record !== null &&
    record.iv instanceof Uint8Array &&
    record.iv.length === 12 &&
    record.ciphertext instanceof Uint8Array
  )
}
