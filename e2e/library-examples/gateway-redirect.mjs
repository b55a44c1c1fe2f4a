// Preloaded with `node --import`: globalThis.fetch sends requests for AI Gateway's host to the
// mock model server (MOCK_URL) instead, path and headers unchanged, so an example runs as written.
const GATEWAY = 'https://ai-gateway.vercel.sh'
const mock = process.env.MOCK_URL
if (!mock) throw new Error('gateway-redirect.mjs needs MOCK_URL')
const realFetch = globalThis.fetch
globalThis.fetch = (input, init) => {
  const url = input instanceof Request ? input.url : String(input)
  if (!url.startsWith(`${GATEWAY}/`)) return realFetch(input, init)
  const redirected = mock + url.slice(GATEWAY.length)
  return input instanceof Request ? realFetch(new Request(redirected, input), init) : realFetch(redirected, init)
}
