/**
 * Registers the optional offline shell (public/sw.js) once the page is idle. It keeps the files
 * the build lists (shell-manifest.json), so a later visit with no network still starts and plays
 * the demo. Nothing depends on it: where service workers are unavailable or refused,
 * the page runs as before, online.
 */
export function keepOfflineShell(): void {
  const sw = globalThis.navigator?.serviceWorker
  if (!sw || location.protocol === 'file:') return
  const loaded = () => [location.href, ...performance.getEntriesByType('resource').map((entry) => entry.name)]
  void sw
    .register(new URL('./sw.js', document.baseURI), { scope: './' })
    .then(() => sw.ready)
    // The worker keeps the build's file list on install; what this visit loaded is added too.
    .then((registration) => registration.active?.postMessage({ cache: loaded() }))
    .catch(() => {})
}
