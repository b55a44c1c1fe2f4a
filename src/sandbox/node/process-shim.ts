/**
 * Sandbox worker, imported first: the ports of Node modules (util, assert) read `process` when
 * they load, before any run has set the real one. A bare stand-in, replaced during each run.
 */
const scope = globalThis as { process?: unknown }
scope.process ??= { env: {}, version: 'v20.19.0', versions: {}, nextTick: (fn: () => void) => queueMicrotask(fn), emitWarning() {} }
export {}
