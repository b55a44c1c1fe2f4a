// Generated from src/shared/error-registry.ts by src/errors-generated.test.ts: do not edit. To change
// a code, edit the registry and run FX_UPDATE_FIXTURES=1 npx vitest run src/errors-generated.test.ts
// (`@lazy`: a constant the engine does not use is left out of engine.wasm).

/** engine.wasm could not be fetched or compiled (`interactive` rejects) */
@lazy export const FX_ENGINE_LOAD_FAILED: string = 'FX_ENGINE_LOAD_FAILED'

/** the engine hit an internal error; it is restarted from the last saved session and the terminal says so */
@lazy export const FX_ENGINE_TRAP: string = 'FX_ENGINE_TRAP'

/** agent API: AI Gateway was to answer, and there is no `apiKey`, no `AI_GATEWAY_API_KEY` (in Node: `process.env`; in a page: the `env` option) and no `credentials` */
@lazy export const FX_AI_GATEWAY_API_KEY_MISSING: string = 'FX_AI_GATEWAY_API_KEY_MISSING'

/** the key could not be read from the page's key or sign-in store, so nothing was sent */
@lazy export const FX_MODEL_KEY_UNAVAILABLE: string = 'FX_MODEL_KEY_UNAVAILABLE'

/** 401/403: the key was rejected or is missing */
@lazy export const FX_MODEL_UNAUTHORIZED: string = 'FX_MODEL_UNAUTHORIZED'

/** 404: unknown model; the message lists what the server has */
@lazy export const FX_MODEL_NOT_FOUND: string = 'FX_MODEL_NOT_FOUND'

/** 429; `retryAfterMs` carries Retry-After */
@lazy export const FX_MODEL_RATE_LIMITED: string = 'FX_MODEL_RATE_LIMITED'

/** 408: the server timed out waiting for the request */
@lazy export const FX_MODEL_TIMEOUT: string = 'FX_MODEL_TIMEOUT'

/** 409: a conflicting request upstream */
@lazy export const FX_MODEL_CONFLICT: string = 'FX_MODEL_CONFLICT'

/** 5xx */
@lazy export const FX_MODEL_SERVER_ERROR: string = 'FX_MODEL_SERVER_ERROR'

/** another 4xx */
@lazy export const FX_MODEL_REQUEST_REJECTED: string = 'FX_MODEL_REQUEST_REJECTED'

/** the server answered but refused this page's origin; the message has the server's exact fix */
@lazy export const FX_MODEL_CORS_REFUSED: string = 'FX_MODEL_CORS_REFUSED'

/** the browser's Local Network Access permission is denied for this page */
@lazy export const FX_MODEL_LOCAL_NETWORK_DENIED: string = 'FX_MODEL_LOCAL_NETWORK_DENIED'

/** an http server from an https page */
@lazy export const FX_MODEL_MIXED_CONTENT: string = 'FX_MODEL_MIXED_CONTENT'

/** the base URL does not parse */
@lazy export const FX_MODEL_INVALID_URL: string = 'FX_MODEL_INVALID_URL'

/** nothing answered at the base URL (retryable only for a remote host) */
@lazy export const FX_MODEL_UNREACHABLE: string = 'FX_MODEL_UNREACHABLE'

/** the provider's API answers no request from a browser page (no CORS), so it works only through the app's `fetch` option */
@lazy export const FX_MODEL_BROWSER_REFUSED: string = 'FX_MODEL_BROWSER_REFUSED'

/** a request carrying a key was answered with a redirect, which is not followed: the key goes only to the origin it was saved for */
@lazy export const FX_MODEL_REDIRECT_REFUSED: string = 'FX_MODEL_REDIRECT_REFUSED'

/** the page was opened with a link naming a model server (?baseUrl=), and the person answered no when asked whether to send prompts there; nothing was sent */
@lazy export const FX_MODEL_LINK_DECLINED: string = 'FX_MODEL_LINK_DECLINED'

/** the connection failed although the server is up and accepts this origin */
@lazy export const FX_MODEL_NETWORK_ERROR: string = 'FX_MODEL_NETWORK_ERROR'

/** a line of the stream was not valid JSON or not an event */
@lazy export const FX_MODEL_STREAM_MALFORMED: string = 'FX_MODEL_STREAM_MALFORMED'

/** the stream ended, or the connection dropped, before a finish_reason */
@lazy export const FX_MODEL_STREAM_TRUNCATED: string = 'FX_MODEL_STREAM_TRUNCATED'

/** one stream event (or a non-streamed reply) was over 4 MB; it is refused at once, not read whole */
@lazy export const FX_MODEL_EVENT_TOO_LARGE: string = 'FX_MODEL_EVENT_TOO_LARGE'

/** no progress on the stream for the idle limit (60 s by default; keep-alive comments do not count) */
@lazy export const FX_MODEL_STREAM_IDLE: string = 'FX_MODEL_STREAM_IDLE'

/** the server sent an error in the middle of a 200 stream */
@lazy export const FX_MODEL_STREAM_ERROR: string = 'FX_MODEL_STREAM_ERROR'

/** no model named and the provider has no default */
@lazy export const FX_MODEL_NOT_CHOSEN: string = 'FX_MODEL_NOT_CHOSEN'

/** fast mode asked of a provider without a faster tier */
@lazy export const FX_MODEL_UNSUPPORTED_FAST: string = 'FX_MODEL_UNSUPPORTED_FAST'

/** ultrafast asked of a provider whose wire has no such tier (Anthropic Messages) */
@lazy export const FX_MODEL_UNSUPPORTED_ULTRAFAST: string = 'FX_MODEL_UNSUPPORTED_ULTRAFAST'

/** a bug in the adapter (it threw) */
@lazy export const FX_MODEL_PROVIDER_FAILED: string = 'FX_MODEL_PROVIDER_FAILED'

/** listModels: the server does not list its models, or failed to */
@lazy export const FX_MODEL_CATALOG_UNAVAILABLE: string = 'FX_MODEL_CATALOG_UNAVAILABLE'

/** listModels: the answer was not OpenAI's { data: [...] } */
@lazy export const FX_MODEL_CATALOG_MALFORMED: string = 'FX_MODEL_CATALOG_MALFORMED'

/** listModels: the caller's signal aborted */
@lazy export const FX_MODEL_CATALOG_CANCELLED: string = 'FX_MODEL_CATALOG_CANCELLED'

/** the offline demo's tape could not be loaded */
@lazy export const FX_DEMO_TAPE_UNAVAILABLE: string = 'FX_DEMO_TAPE_UNAVAILABLE'

/** a session commit named a stale revision (another tab wrote it); the engine forks */
@lazy export const FX_SESSION_REVISION_CONFLICT: string = 'FX_SESSION_REVISION_CONFLICT'

/** the same for the sign-in store */
@lazy export const FX_OAUTH_SESSION_REVISION_CONFLICT: string = 'FX_OAUTH_SESSION_REVISION_CONFLICT'

/** a store call did not settle within its deadline (10 s) */
@lazy export const FX_STORE_TIMEOUT: string = 'FX_STORE_TIMEOUT'

/** the browser's storage quota is full; the session goes on in memory */
@lazy export const FX_STORE_QUOTA_EXCEEDED: string = 'FX_STORE_QUOTA_EXCEEDED'

/** any other store failure */
@lazy export const FX_STORE_FAILED: string = 'FX_STORE_FAILED'

/** a stored record has an unknown shape; it is left as it is */
@lazy export const FX_STORE_RECORD_INVALID: string = 'FX_STORE_RECORD_INVALID'

/** Web Crypto is missing (plain http): sign-in bytes cannot be sealed */
@lazy export const FX_STORE_CRYPTO_UNAVAILABLE: string = 'FX_STORE_CRYPTO_UNAVAILABLE'

/** `/fast` on a model whose catalog entry has no fast tier */
@lazy export const LIBFX_MODEL_UNSUPPORTED_FAST: string = 'LIBFX_MODEL_UNSUPPORTED_FAST'

/** agent API: `ultrafast` on a model whose catalog entry says it has no ultrafast tier */
@lazy export const LIBFX_MODEL_UNSUPPORTED_ULTRAFAST: string = 'LIBFX_MODEL_UNSUPPORTED_ULTRAFAST'

/** agent API: an `effort` the model's catalog entry does not list */
@lazy export const LIBFX_MODEL_UNSUPPORTED_EFFORT: string = 'LIBFX_MODEL_UNSUPPORTED_EFFORT'

/** agent API: a session id (or messageId) is not 1–128 letters, digits, `.`, `_` or `-` */
@lazy export const FX_SESSION_ID_INVALID: string = 'FX_SESSION_ID_INVALID'

/** agent API: `accepted` of a prompt whose signal was aborted before it was stored */
@lazy export const FX_TURN_CANCELLED: string = 'FX_TURN_CANCELLED'

/** agent API: a prompt is not a string or an array of text and image blocks */
@lazy export const FX_PROMPT_INVALID: string = 'FX_PROMPT_INVALID'

/** more than 8 images in one prompt */
@lazy export const FX_PROMPT_IMAGE_LIMIT: string = 'FX_PROMPT_IMAGE_LIMIT'

/** an image's data is not base64 */
@lazy export const FX_PROMPT_IMAGE_INVALID: string = 'FX_PROMPT_IMAGE_INVALID'

/** an image over 3.75 MiB, or images over 6 MiB together */
@lazy export const FX_PROMPT_IMAGE_TOO_LARGE: string = 'FX_PROMPT_IMAGE_TOO_LARGE'

/** not PNG, JPEG, GIF or WebP by its bytes, or its claimed type is not what the bytes are */
@lazy export const FX_PROMPT_IMAGE_UNSUPPORTED: string = 'FX_PROMPT_IMAGE_UNSUPPORTED'

/** `resizeImage` threw for an image over a limit or of another type (`true` where the runtime cannot decode images) */
@lazy export const FX_PROMPT_IMAGE_RESIZE_FAILED: string = 'FX_PROMPT_IMAGE_RESIZE_FAILED'

/** a tool without a usable name or an `execute`, two tools of one name, or one named `run_command` */
@lazy export const FX_TOOL_INVALID: string = 'FX_TOOL_INVALID'

/** createFxAgent got an option it does not take (`persistence`, `sessionId`, or a misspelt name); `error.option` names it */
@lazy export const FX_AGENT_OPTION_UNKNOWN: string = 'FX_AGENT_OPTION_UNKNOWN'

/** a prompt after `agent.close()` */
@lazy export const FX_AGENT_CLOSED: string = 'FX_AGENT_CLOSED'

/** a turn could not start (the message says why) */
@lazy export const FX_AGENT_FAILED: string = 'FX_AGENT_FAILED'

/** the agent's worker did not start (its script did not load, or it threw); the next turn starts a new one */
@lazy export const FX_AGENT_WORKER_FAILED: string = 'FX_AGENT_WORKER_FAILED'

/** agent API: the `provider` option names no provider (or a refused base URL) */
@lazy export const FX_MODEL_PROVIDER_UNKNOWN: string = 'FX_MODEL_PROVIDER_UNKNOWN'

/** `FxFencedError`: a persistence append named a stale cursor; the engine stops writing */
@lazy export const FX_FENCED: string = 'FX_FENCED'

/** `FxJournalVersionError`: a journal record from a newer fxterm */
@lazy export const FX_JOURNAL_VERSION: string = 'FX_JOURNAL_VERSION'

/** a checkpoint over 4 MiB */
@lazy export const FX_CHECKPOINT_TOO_LARGE: string = 'FX_CHECKPOINT_TOO_LARGE'

/** `createFxEngine` got both `checkpoint` and `persistence` */
@lazy export const FX_ENGINE_OPTIONS: string = 'FX_ENGINE_OPTIONS'

/** no client id, or a sign-in endpoint that is not https (or loopback http) */
@lazy export const FX_SIGNIN_NOT_CONFIGURED: string = 'FX_SIGNIN_NOT_CONFIGURED'

/** the issuer answered but refused this page's origin */
@lazy export const FX_SIGNIN_CORS_REFUSED: string = 'FX_SIGNIN_CORS_REFUSED'

/** nothing answered at the issuer */
@lazy export const FX_SIGNIN_UNREACHABLE: string = 'FX_SIGNIN_UNREACHABLE'

/** the discovery document or an answer was not what OpenID / RFC 8628 describe */
@lazy export const FX_SIGNIN_BAD_RESPONSE: string = 'FX_SIGNIN_BAD_RESPONSE'

/** the person declined on the verification page */
@lazy export const FX_SIGNIN_DENIED: string = 'FX_SIGNIN_DENIED'

/** the code expired before it was approved */
@lazy export const FX_SIGNIN_EXPIRED: string = 'FX_SIGNIN_EXPIRED'

/** the issuer refused for another reason (its own words, masked, are in the message) */
@lazy export const FX_SIGNIN_REFUSED: string = 'FX_SIGNIN_REFUSED'

/** Esc, /logout or a closed tab stopped the sign-in */
@lazy export const FX_SIGNIN_CANCELLED: string = 'FX_SIGNIN_CANCELLED'

/** the refresh token was rejected: signed out */
@lazy export const FX_SIGNIN_REFRESH_REJECTED: string = 'FX_SIGNIN_REFRESH_REJECTED'
