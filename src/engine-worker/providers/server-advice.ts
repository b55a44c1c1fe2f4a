/**
 * The exact fix to print for a local model server, per server. Each claim here was checked
 * against the server itself, because advice that is wrong for the server in front of the user
 * costs more than generic advice:
 * - Ollama allows only its own origins (localhost, 127.0.0.1, app://…) unless `OLLAMA_ORIGINS`
 *   lists others.
 * - LM Studio sends no CORS headers until "Enable CORS" is on in its server settings
 *   (`lms server start --cors` from the command line).
 * - llama.cpp's llama-server echoes every request's Origin back and answers preflights with
 *   `Access-Control-Allow-Headers: *`, so it needs no CORS flag. But browsers never let `*`
 *   cover `Authorization` (Fetch standard), so a llama-server started with `--api-key` cannot
 *   be called with that key from another origin.
 */

/** The local servers fxterm has presets for. */
export type LocalServerKind = 'ollama' | 'lmstudio' | 'llamacpp'

/**
 * Which local server `url` is: the provider's own word when it has one (a preset), else
 * Ollama's and LM Studio's distinctive default ports. Port 8080 is too common to mean llama.cpp.
 */
export function localServerKind(url: URL, hint?: LocalServerKind): LocalServerKind | undefined {
  if (hint !== undefined) return hint
  if (url.port === '11434') return 'ollama'
  if (url.port === '1234') return 'lmstudio'
  return undefined
}

/** The fix for a server that answered but refused this page's origin. */
export function corsFix(kind: LocalServerKind | undefined, url: URL, origin: string | undefined): string {
  switch (kind) {
    case 'ollama':
      return `restart Ollama with OLLAMA_ORIGINS=${origin ?? '<page origin>'} ollama serve`
    case 'lmstudio':
      return "enable CORS in LM Studio's server settings (or start it with lms server start --cors)"
    case 'llamacpp':
      return `llama-server allows every origin by default, so check that it is llama-server answering at ${url.host} and not a proxy that drops its CORS headers`
    default:
      return `allow the origin ${origin ?? 'of this page'} in the server's CORS settings`
  }
}

/** The fix when llama-server answers this origin but refuses the request that carries a key. */
export const LLAMACPP_KEY_FIX =
  'llama-server allows request headers "*", which browsers never apply to Authorization, so run it without --api-key (on localhost) or put a proxy in front that allows the Authorization header'

/**
 * How to start a server that is not running, with this page's origin already allowed, so the
 * one line is all a person needs (an Ollama started plainly would refuse the page next).
 */
export function startHint(kind: LocalServerKind | undefined, origin?: string): string {
  switch (kind) {
    case 'ollama':
      return `start it with OLLAMA_ORIGINS=${origin ?? '<page origin>'} ollama serve and try again`
    case 'lmstudio':
      return "start the server in LM Studio's Developer tab with Enable CORS on (or run lms server start --cors) and try again"
    case 'llamacpp':
      return 'start llama-server -m <model.gguf> (it listens on 127.0.0.1:8080, use --host and --port to change that) and try again'
    default:
      return 'check that the server is running at that address and try again'
  }
}
