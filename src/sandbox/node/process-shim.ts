/**
 * Sandbox worker, imported first. The ports of Node modules (util, assert) read `process` when
 * they load, before any run has set the real one: a bare stand-in, replaced during each run.
 * And the sandbox's opaque origin is not a secure context, so browsers leave out
 * crypto.randomUUID; Node code expects it, and getRandomValues is there to make it from.
 */
const scope = globalThis as { process?: unknown }
scope.process ??= { env: {}, version: 'v20.19.0', versions: {}, nextTick: (fn: () => void) => queueMicrotask(fn), emitWarning() {} }

if (typeof crypto.randomUUID !== 'function') {
  Object.defineProperty(crypto, 'randomUUID', {
    configurable: true,
    value: () => {
      const bytes = crypto.getRandomValues(new Uint8Array(16))
      bytes[6] = (bytes[6]! & 0x0f) | 0x40
      bytes[8] = (bytes[8]! & 0x3f) | 0x80
      const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    },
  })
}
export {}
