/**
 * Fetches one of fxterm's own files (engine.wasm, the demo tape) by the URL its module resolved
 * with `new URL(…, import.meta.url)`. In a browser that is an http(s) URL and this is `fetch`. In
 * Node (the agent API with `worker: false`, an app that installed the package) it is a `file:`
 * URL, which Node's `fetch` refuses: such a file is read from disk instead.
 */
export async function fetchOwnFile(url: string | URL): Promise<Response> {
  const href = String(url)
  if (!href.startsWith('file:')) return globalThis.fetch(href)
  // A name in a variable, so bundlers for the browser leave this import alone.
  const fsModule = 'node:fs/promises'
  const { readFile } = (await import(/* @vite-ignore */ fsModule)) as { readFile(path: URL): Promise<Uint8Array> }
  try {
    const bytes = await readFile(new URL(href))
    return new Response(bytes as BodyInit, { status: 200 })
  } catch (error) {
    return new Response(error instanceof Error ? error.message : String(error), { status: 404 })
  }
}
