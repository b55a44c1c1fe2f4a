/**
 * Every error code fxterm reports, declared once: what it means, whether trying the same thing
 * again may help, and what the person should do next. Only tests read this table at run time;
 * what ships is generated from it: the host's constants (src/shared/error-codes.ts, one export per
 * code, so a bundle holds only the codes it uses), the engine's (wasm/engine/error-codes.ts:
 * AssemblyScript cannot import from src/) and the error table in docs/library.md.
 * `FX_UPDATE_FIXTURES=1 npx vitest run src/errors-generated.test.ts` rewrites all three.
 * Codes are public: once released, a code's string never changes.
 */

/** What a code stands for. `retryable` is 'depends' when the failure's own answer decides. */
export type FxErrorInfo = { meaning: string; retryable: boolean | 'depends'; hint: string }

/** The registry, keyed by code, in the order of docs/library.md's table. */
export const ERROR_REGISTRY = {
  // The engine
  FX_ENGINE_LOAD_FAILED: { meaning: 'engine.wasm could not be fetched or compiled (`interactive` rejects)', retryable: 'depends', hint: 'reload the page; check that engine.wasm is served with the page' },
  FX_ENGINE_TRAP: { meaning: 'the engine hit an internal error; it is restarted from the last saved session and the terminal says so', retryable: true, hint: 'repeat the last request' },
  // Model requests (providers)
  FX_AI_GATEWAY_API_KEY_MISSING: { meaning: 'agent API: AI Gateway was to answer, and there is no `apiKey`, no `AI_GATEWAY_API_KEY` (in Node: `process.env`; in a page: the `env` option) and no `credentials`', retryable: false, hint: 'set AI_GATEWAY_API_KEY, or pass apiKey; `provider: "demo"` plays the offline demo' },
  FX_MODEL_KEY_UNAVAILABLE: { meaning: "the key could not be read from the page's key or sign-in store, so nothing was sent", retryable: false, hint: 'check the store the page passed (keyStore, oauthSessionStore), or pass the key in env' },
  FX_MODEL_UNAUTHORIZED: { meaning: '401/403: the key was rejected or is missing', retryable: false, hint: 'run `/login` or set a key, then try again' },
  FX_MODEL_NOT_FOUND: { meaning: '404: unknown model; the message lists what the server has', retryable: false, hint: 'pick one of the listed models with `/model <id>`' },
  FX_MODEL_RATE_LIMITED: { meaning: '429; `retryAfterMs` carries Retry-After', retryable: true, hint: 'wait as long as the message says, then try again' },
  FX_MODEL_TIMEOUT: { meaning: '408: the server timed out waiting for the request', retryable: true, hint: 'try again' },
  FX_MODEL_CONFLICT: { meaning: '409: a conflicting request upstream', retryable: true, hint: 'try again in a moment' },
  FX_MODEL_SERVER_ERROR: { meaning: '5xx', retryable: true, hint: 'try again in a moment' },
  FX_MODEL_REQUEST_REJECTED: { meaning: 'another 4xx', retryable: false, hint: 'the model may not support tool calls: try another model' },
  FX_MODEL_CORS_REFUSED: { meaning: "the server answered but refused this page's origin; the message has the server's exact fix", retryable: false, hint: "apply the fix the message gives to the server's CORS settings" },
  FX_MODEL_LOCAL_NETWORK_DENIED: { meaning: "the browser's Local Network Access permission is denied for this page", retryable: false, hint: "allow local network access in the site's settings, then reload" },
  FX_MODEL_MIXED_CONTENT: { meaning: 'an http server from an https page', retryable: false, hint: 'serve the model over https, or open fxterm over http://localhost' },
  FX_MODEL_INVALID_URL: { meaning: 'the base URL does not parse', retryable: false, hint: "set FX_BASE_URL to the server's API root" },
  FX_MODEL_UNREACHABLE: { meaning: 'nothing answered at the base URL (retryable only for a remote host)', retryable: 'depends', hint: 'start the model server, or check the network and the address' },
  FX_MODEL_BROWSER_REFUSED: { meaning: "the provider's API answers no request from a browser page (no CORS), so it works only through the app's `fetch` option", retryable: false, hint: 'pass a `fetch` option that sends model requests through your own server, or pick another provider' },
  FX_MODEL_REDIRECT_REFUSED: { meaning: 'a request carrying a key was answered with a redirect, which is not followed: the key goes only to the origin it was saved for', retryable: false, hint: "set the provider's base URL to where the server really answers" },
  FX_MODEL_LINK_DECLINED: { meaning: 'the page was opened with a link naming a model server (?baseUrl=), and the person answered no when asked whether to send prompts there; nothing was sent', retryable: false, hint: 'pick another provider with `/provider`, or reload the link and answer yes' },
  FX_MODEL_NETWORK_ERROR: { meaning: 'the connection failed although the server is up and accepts this origin', retryable: true, hint: "try again; if it keeps failing, allow our headers in the server's CORS settings" },
  FX_MODEL_STREAM_MALFORMED: { meaning: 'a line of the stream was not valid JSON or not an event', retryable: false, hint: 'check that the base URL serves OpenAI Chat Completions' },
  FX_MODEL_STREAM_TRUNCATED: { meaning: 'the stream ended, or the connection dropped, before a finish_reason', retryable: true, hint: 'try again' },
  FX_MODEL_EVENT_TOO_LARGE: { meaning: 'one stream event (or a non-streamed reply) was over 4 MB; it is refused at once, not read whole', retryable: false, hint: 'ask for the work in smaller steps (write a large file in parts)' },
  FX_MODEL_STREAM_IDLE: { meaning: 'no progress on the stream for the idle limit (60 s by default; keep-alive comments do not count)', retryable: true, hint: 'try again; raise `streamIdleTimeoutMs` for a model that is silent longer' },
  FX_MODEL_STREAM_ERROR: { meaning: 'the server sent an error in the middle of a 200 stream', retryable: 'depends', hint: "the message quotes the server; try again if it says so" },
  FX_MODEL_NOT_CHOSEN: { meaning: 'no model named and the provider has no default', retryable: false, hint: 'pick one with `/model <id>` (`/models` lists them)' },
  FX_MODEL_UNSUPPORTED_FAST: { meaning: 'fast mode asked of a provider without a faster tier', retryable: false, hint: 'turn fast mode off with `/fast`' },
  FX_MODEL_UNSUPPORTED_ULTRAFAST: { meaning: 'ultrafast asked of a provider whose wire has no such tier (Anthropic Messages)', retryable: false, hint: 'leave `ultrafast` off for this provider' },
  FX_MODEL_PROVIDER_FAILED: { meaning: 'a bug in the adapter (it threw)', retryable: false, hint: 'report the message as a bug; another model or provider may work' },
  FX_MODEL_CATALOG_UNAVAILABLE: { meaning: 'listModels: the server does not list its models, or failed to', retryable: 'depends', hint: 'name the model yourself with `/model <id>`, or list again later' },
  FX_MODEL_CATALOG_MALFORMED: { meaning: "listModels: the answer was not OpenAI's { data: [...] }", retryable: false, hint: 'check that the base URL is an OpenAI-compatible API root' },
  FX_MODEL_CATALOG_CANCELLED: { meaning: "listModels: the caller's signal aborted", retryable: false, hint: 'nothing: the listing was stopped on purpose' },
  FX_DEMO_TAPE_UNAVAILABLE: { meaning: "the offline demo's tape could not be loaded", retryable: true, hint: 'reload the page, or connect a model' },
  // Stores
  FX_SESSION_REVISION_CONFLICT: { meaning: 'a session commit named a stale revision (another tab wrote it); the engine forks', retryable: false, hint: 'load the session again before saving' },
  FX_OAUTH_SESSION_REVISION_CONFLICT: { meaning: 'the same for the sign-in store', retryable: false, hint: 'load the sign-in again first' },
  FX_STORE_TIMEOUT: { meaning: 'a store call did not settle within its deadline (10 s)', retryable: true, hint: "try again; if the browser's storage stays stuck, reload the page" },
  FX_STORE_QUOTA_EXCEEDED: { meaning: "the browser's storage quota is full; the session goes on in memory", retryable: false, hint: "delete old sessions or clear this site's data to make room" },
  FX_STORE_FAILED: { meaning: 'any other store failure', retryable: 'depends', hint: 'the message says why; try again or reload the page' },
  FX_STORE_RECORD_INVALID: { meaning: 'a stored record has an unknown shape; it is left as it is', retryable: false, hint: 'start a new session with `/new`' },
  FX_STORE_CRYPTO_UNAVAILABLE: { meaning: 'Web Crypto is missing (plain http): sign-in bytes cannot be sealed', retryable: false, hint: 'serve the page over https or from localhost' },
  // The engine's model settings; the reference names these LIBFX_MODEL_UNSUPPORTED_*
  LIBFX_MODEL_UNSUPPORTED_FAST: { meaning: '`/fast` on a model whose catalog entry has no fast tier', retryable: false, hint: 'pick a model with a fast tier, or leave fast mode off' },
  LIBFX_MODEL_UNSUPPORTED_ULTRAFAST: { meaning: "agent API: `ultrafast` on a model whose catalog entry says it has no ultrafast tier", retryable: false, hint: 'pick a model the catalog offers ultrafast for, or leave it off' },
  LIBFX_MODEL_UNSUPPORTED_EFFORT: { meaning: "agent API: an `effort` the model's catalog entry does not list", retryable: false, hint: 'use one of the efforts the catalog lists for the model, or none' },
  // The agent API
  FX_SESSION_ID_INVALID: { meaning: 'agent API: a session id (or messageId) is not 1–128 letters, digits, `.`, `_` or `-`', retryable: false, hint: 'pass an id of that shape' },
  FX_TURN_CANCELLED: { meaning: 'agent API: `accepted` of a prompt whose signal was aborted before it was stored', retryable: false, hint: 'send the prompt again if it is still wanted' },
  FX_PROMPT_INVALID: { meaning: 'agent API: a prompt is not a string or an array of text and image blocks', retryable: false, hint: 'pass a string or an array of text and image blocks' },
  FX_PROMPT_IMAGE_LIMIT: { meaning: 'more than 8 images in one prompt', retryable: false, hint: 'send at most 8 images per prompt' },
  FX_PROMPT_IMAGE_INVALID: { meaning: "an image's data is not base64", retryable: false, hint: 'pass the image bytes base64-encoded' },
  FX_PROMPT_IMAGE_TOO_LARGE: { meaning: 'an image over 3.75 MiB, or images over 6 MiB together', retryable: false, hint: 'send smaller or fewer images' },
  FX_PROMPT_IMAGE_UNSUPPORTED: { meaning: 'not PNG, JPEG, GIF or WebP by its bytes, or its claimed type is not what the bytes are', retryable: false, hint: 'send PNG, JPEG, GIF or WebP with its true type' },
  FX_PROMPT_IMAGE_RESIZE_FAILED: { meaning: '`resizeImage` threw for an image over a limit or of another type (`true` where the runtime cannot decode images)', retryable: false, hint: 'fix the resizer, or pass a function where there is no canvas' },
  FX_TOOL_INVALID: { meaning: 'a tool without a usable name or an `execute`, two tools of one name, or one named `run_command`', retryable: false, hint: 'fix the tool the message names' },
  FX_AGENT_OPTION_UNKNOWN: { meaning: 'createFxAgent got an option it does not take (`persistence`, `sessionId`, or a misspelt name); `error.option` names it', retryable: false, hint: 'remove or rename the option the message names' },
  FX_AGENT_CLOSED: { meaning: 'a prompt after `agent.close()`', retryable: false, hint: 'create a new agent' },
  FX_AGENT_FAILED: { meaning: 'a turn could not start (the message says why)', retryable: 'depends', hint: 'fix what the message names, then prompt again' },
  FX_AGENT_WORKER_FAILED: { meaning: "the agent's worker did not start (its script did not load, or it threw); the next turn starts a new one", retryable: true, hint: "check that the worker's script is served, then prompt again" },
  FX_MODEL_PROVIDER_UNKNOWN: { meaning: 'agent API: the `provider` option names no provider (or a refused base URL)', retryable: false, hint: 'name a configured provider' },
  FX_FENCED: { meaning: '`FxFencedError`: a persistence append named a stale cursor; the engine stops writing', retryable: false, hint: 'another writer has the session: load it again' },
  FX_JOURNAL_VERSION: { meaning: '`FxJournalVersionError`: a journal record from a newer fxterm', retryable: false, hint: 'open it with the newer fxterm' },
  FX_CHECKPOINT_TOO_LARGE: { meaning: 'a checkpoint over 4 MiB', retryable: false, hint: 'use `persistence` instead of a checkpoint' },
  FX_ENGINE_OPTIONS: { meaning: '`createFxEngine` got both `checkpoint` and `persistence`', retryable: false, hint: 'pass one of them' },
  // Sign-in
  FX_SIGNIN_NOT_CONFIGURED: { meaning: 'no client id, or a sign-in endpoint that is not https (or loopback http)', retryable: false, hint: 'configure a client id and https endpoints' },
  FX_SIGNIN_CORS_REFUSED: { meaning: "the issuer answered but refused this page's origin", retryable: false, hint: 'pass a `fetch` option (your proxy)' },
  FX_SIGNIN_UNREACHABLE: { meaning: 'nothing answered at the issuer', retryable: true, hint: 'check the network and run `/login` again' },
  FX_SIGNIN_BAD_RESPONSE: { meaning: 'the discovery document or an answer was not what OpenID / RFC 8628 describe', retryable: false, hint: "check the issuer's address" },
  FX_SIGNIN_DENIED: { meaning: 'the person declined on the verification page', retryable: false, hint: 'run `/login` to try again' },
  FX_SIGNIN_EXPIRED: { meaning: 'the code expired before it was approved', retryable: false, hint: 'run `/login` for a new code' },
  FX_SIGNIN_REFUSED: { meaning: 'the issuer refused for another reason (its own words, masked, are in the message)', retryable: false, hint: 'fix what the issuer says, then run `/login`' },
  FX_SIGNIN_CANCELLED: { meaning: 'Esc, /logout or a closed tab stopped the sign-in', retryable: false, hint: 'run `/login` to start again' },
  FX_SIGNIN_REFRESH_REJECTED: { meaning: 'the refresh token was rejected: signed out', retryable: false, hint: 'run `/login` again' },
} as const satisfies Record<string, FxErrorInfo>
