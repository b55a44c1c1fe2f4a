// fxterm's offline shell (optional: the page works without it, just not offline). Same-origin
// GETs only. Hashed build files (assets/…) never change, so the kept copy answers at once; every
// other file (pages, engine.wasm, fx-terminal.js, demo tapes) comes from the network first, so a
// new deploy never mixes a new page with an old engine, and falls back to the copy offline.
// Model APIs (another origin, POST) are never touched.
const CACHE = 'fxterm-shell-v1'

// On install, everything the build listed (shell-manifest.json): chunks, the lazily loaded bash
// worker, engine.wasm and the demo tapes, so the next visit needs no network at all.
self.addEventListener('install', (event) => {
  self.skipWaiting()
  event.waitUntil(
    (async () => {
      const response = await fetch('./shell-manifest.json', { cache: 'no-cache' }).catch(() => null)
      if (!response?.ok) return
      const { files } = await response.json()
      const cache = await caches.open(CACHE)
      await Promise.all(files.map((file) => cache.add(new URL(file, self.registration.scope)).catch(() => undefined)))
    })(),
  )
})
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name)
      await self.clients.claim()
    })(),
  )
})

// The page may also send what it loaded (a build without a manifest, e.g. the dev server).
self.addEventListener('message', (event) => {
  const urls = Array.isArray(event.data?.cache) ? event.data.cache : []
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      Promise.all(urls.filter(sameOrigin).map((url) => cache.match(url).then((hit) => hit ?? cache.add(url)).catch(() => undefined))),
    ),
  )
})

function sameOrigin(url) {
  try {
    return new URL(url, self.location.href).origin === self.location.origin
  } catch {
    return false
  }
}

async function keep(request, response) {
  if (response.ok && response.type === 'basic') await (await caches.open(CACHE)).put(request, response.clone())
  return response
}

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET' || !sameOrigin(request.url)) return
  // ignoreVary: module scripts ask with an Origin header the kept copy was not fetched with.
  const kept = () => caches.match(request, { ignoreSearch: request.mode === 'navigate', ignoreVary: true })
  if (!new URL(request.url).pathname.includes('/assets/')) {
    event.respondWith(fetch(request).then((response) => keep(request, response), async (error) => (await kept()) ?? Promise.reject(error)))
    return
  }
  event.respondWith(
    (async () => {
      const cached = await kept()
      return cached ?? fetch(request).then((response) => keep(request, response))
    })(),
  )
})
