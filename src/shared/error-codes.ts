// Generated from src/shared/error-registry.ts by src/errors-generated.test.ts: do not edit. To change
// a code, edit the registry and run FX_UPDATE_FIXTURES=1 npx vitest run src/errors-generated.test.ts

/** engine.wasm could not be fetched or compiled (`interactive` rejects) */
export const FX_ENGINE_LOAD_FAILED = 'FX_ENGINE_LOAD_FAILED'

/** the engine hit an internal error; it is restarted from the last saved session and the terminal says so */
export const FX_ENGINE_TRAP = 'FX_ENGINE_TRAP'

/** agent API: AI Gateway was to answer, and there is no `apiKey`, no `AI_GATEWAY_API_KEY` (in Node: `process.env`; in a page: the `env` option) and no `credentials` */
export const FX_AI_GATEWAY_API_KEY_MISSING = 'FX_AI_GATEWAY_API_KEY_MISSING'

/** the key could not be read from the page's key or sign-in store, so nothing was sent */
export const FX_MODEL_KEY_UNAVAILABLE = 'FX_MODEL_KEY_UNAVAILABLE'

/** 401/403: the key was rejected or is missing */
export const FX_MODEL_UNAUTHORIZED = 'FX_MODEL_UNAUTHORIZED'

/** 404: unknown model; the message lists what the server has */
export const FX_MODEL_NOT_FOUND = 'FX_MODEL_NOT_FOUND'

/** 429; `retryAfterMs` carries Retry-After */
export const FX_MODEL_RATE_LIMITED = 'FX_MODEL_RATE_LIMITED'

/** 408: the server timed out waiting for the request */
export const FX_MODEL_TIMEOUT = 'FX_MODEL_TIMEOUT'

/** 409: a conflicting request upstream */
export const FX_MODEL_CONFLICT = 'FX_MODEL_CONFLICT'

/** 5xx */
export const FX_MODEL_SERVER_ERROR = 'FX_MODEL_SERVER_ERROR'

/** another 4xx */
export const FX_MODEL_REQUEST_REJECTED = 'FX_MODEL_REQUEST_REJECTED'

/** the server answered but refused this page's origin; the message has the server's exact fix */
export const FX_MODEL_CORS_REFUSED = 'FX_MODEL_CORS_REFUSED'

/** the browser's Local Network Access permission is denied for this page */
export const FX_MODEL_LOCAL_NETWORK_DENIED = 'FX_MODEL_LOCAL_NETWORK_DENIED'

/** an http server from an https page */
export const FX_MODEL_MIXED_CONTENT = 'FX_MODEL_MIXED_CONTENT'

/** the base URL does not parse */
export const FX_MODEL_INVALID_URL = 'FX_MODEL_INVALID_URL'

/** nothing answered at the base URL (retryable only for a remote host) */
export const FX_MODEL_UNREACHABLE = 'FX_MODEL_UNREACHABLE'

/** the provider's API answers no request from a browser page (no CORS), so it works only through the app's `fetch` option */
export const FX_MODEL_BROWSER_REFUSED = 'FX_MODEL_BROWSER_REFUSED'

/** a request carrying a key was answered with a redirect, which is not followed: the key goes only to the origin it was saved for */
export const FX_MODEL_REDIRECT_REFUSED = 'FX_MODEL_REDIRECT_REFUSED'

/** the page was opened with a link naming a model server (?baseUrl=), and the person answered no when asked whether to send prompts there; nothing was sent */
export const FX_MODEL_LINK_DECLINED = 'FX_MODEL_LINK_DECLINED'

/** the connection failed although the server is up and accepts this origin */
export const FX_MODEL_NETWORK_ERROR = 'FX_MODEL_NETWORK_ERROR'

/** a line of the stream was not valid JSON or not an event */
export const FX_MODEL_STREAM_MALFORMED = 'FX_MODEL_STREAM_MALFORMED'

/** the stream ended, or the connection dropped, before a finish_reason */
export const FX_MODEL_STREAM_TRUNCATED = 'FX_MODEL_STREAM_TRUNCATED'

/** one stream event (or a non-streamed reply) was over 4 MB; it is refused at once, not read whole */
export const FX_MODEL_EVENT_TOO_LARGE = 'FX_MODEL_EVENT_TOO_LARGE'

/** no progress on the stream for the idle limit (60 s by default; keep-alive comments do not count) */
export const FX_MODEL_STREAM_IDLE = 'FX_MODEL_STREAM_IDLE'

/** the server sent an error in the middle of a 200 stream */
export const FX_MODEL_STREAM_ERROR = 'FX_MODEL_STREAM_ERROR'

/** no model named and the provider has no default */
export const FX_MODEL_NOT_CHOSEN = 'FX_MODEL_NOT_CHOSEN'

/** fast mode asked of a provider without a faster tier */
export const FX_MODEL_UNSUPPORTED_FAST = 'FX_MODEL_UNSUPPORTED_FAST'

/** ultrafast asked of a provider whose wire has no such tier (Anthropic Messages) */
export const FX_MODEL_UNSUPPORTED_ULTRAFAST = 'FX_MODEL_UNSUPPORTED_ULTRAFAST'

/** a bug in the adapter (it threw) */
export const FX_MODEL_PROVIDER_FAILED = 'FX_MODEL_PROVIDER_FAILED'

/** listModels: the server does not list its models, or failed to */
export const FX_MODEL_CATALOG_UNAVAILABLE = 'FX_MODEL_CATALOG_UNAVAILABLE'

/** listModels: the answer was not OpenAI's { data: [...] } */
export const FX_MODEL_CATALOG_MALFORMED = 'FX_MODEL_CATALOG_MALFORMED'

/** listModels: the caller's signal aborted */
export const FX_MODEL_CATALOG_CANCELLED = 'FX_MODEL_CATALOG_CANCELLED'

/** the offline demo's tape could not be loaded */
export const FX_DEMO_TAPE_UNAVAILABLE = 'FX_DEMO_TAPE_UNAVAILABLE'

/** a session commit named a stale revision (another tab wrote it); the engine forks */
export const FX_SESSION_REVISION_CONFLICT = 'FX_SESSION_REVISION_CONFLICT'

/** the same for the sign-in store */
export const FX_OAUTH_SESSION_REVISION_CONFLICT = 'FX_OAUTH_SESSION_REVISION_CONFLICT'

/** a store call did not settle within its deadline (10 s) */
export const FX_STORE_TIMEOUT = 'FX_STORE_TIMEOUT'

/** the browser's storage quota is full; the session goes on in memory */
export const FX_STORE_QUOTA_EXCEEDED = 'FX_STORE_QUOTA_EXCEEDED'

/** any other store failure */
export const FX_STORE_FAILED = 'FX_STORE_FAILED'

/** a stored record has an unknown shape; it is left as it is */
export const FX_STORE_RECORD_INVALID = 'FX_STORE_RECORD_INVALID'

/** Web Crypto is missing (plain http): sign-in bytes cannot be sealed */
export const FX_STORE_CRYPTO_UNAVAILABLE = 'FX_STORE_CRYPTO_UNAVAILABLE'

/** `/fast` on a model whose catalog entry has no fast tier */
export const LIBFX_MODEL_UNSUPPORTED_FAST = 'LIBFX_MODEL_UNSUPPORTED_FAST'

/** agent API: `ultrafast` on a model whose catalog entry says it has no ultrafast tier */
export const LIBFX_MODEL_UNSUPPORTED_ULTRAFAST = 'LIBFX_MODEL_UNSUPPORTED_ULTRAFAST'

/** agent API: an `effort` the model's catalog entry does not list */
export const LIBFX_MODEL_UNSUPPORTED_EFFORT = 'LIBFX_MODEL_UNSUPPORTED_EFFORT'

/** agent API: a session id (or messageId) is not 1–128 letters, digits, `.`, `_` or `-` */
export const FX_SESSION_ID_INVALID = 'FX_SESSION_ID_INVALID'

/** agent API: `accepted` of a prompt whose signal was aborted before it was stored */
export const FX_TURN_CANCELLED = 'FX_TURN_CANCELLED'

/** agent API: a prompt is not a string or an array of text and image blocks */
export const FX_PROMPT_INVALID = 'FX_PROMPT_INVALID'

/** more than 8 images in one prompt */
export const FX_PROMPT_IMAGE_LIMIT = 'FX_PROMPT_IMAGE_LIMIT'

/** an image's data is not base64 */
export const FX_PROMPT_IMAGE_INVALID = 'FX_PROMPT_IMAGE_INVALID'

/** an image over 3.75 MiB, or images over 6 MiB together */
export const FX_PROMPT_IMAGE_TOO_LARGE = 'FX_PROMPT_IMAGE_TOO_LARGE'

/** not PNG, JPEG, GIF or WebP by its bytes, or its claimed type is not what the bytes are */
export const FX_PROMPT_IMAGE_UNSUPPORTED = 'FX_PROMPT_IMAGE_UNSUPPORTED'

/** `resizeImage` threw for an image over a limit or of another type (`true` where the runtime cannot decode images) */
export const FX_PROMPT_IMAGE_RESIZE_FAILED = 'FX_PROMPT_IMAGE_RESIZE_FAILED'

/** a tool without a usable name or an `execute`, two tools of one name, or one named `run_command` */
export const FX_TOOL_INVALID = 'FX_TOOL_INVALID'

/** createFxAgent got an option it does not take (`persistence`, `sessionId`, or a misspelt name); `error.option` names it */
export const FX_AGENT_OPTION_UNKNOWN = 'FX_AGENT_OPTION_UNKNOWN'

/** a prompt after `agent.close()` */
export const FX_AGENT_CLOSED = 'FX_AGENT_CLOSED'

/** a turn could not start (the message says why) */
export const FX_AGENT_FAILED = 'FX_AGENT_FAILED'

/** the agent's worker did not start (its script did not load, or it threw); the next turn starts a new one */
export const FX_AGENT_WORKER_FAILED = 'FX_AGENT_WORKER_FAILED'

/** agent API: the `provider` option names no provider (or a refused base URL) */
export const FX_MODEL_PROVIDER_UNKNOWN = 'FX_MODEL_PROVIDER_UNKNOWN'

/** `FxFencedError`: a persistence append named a stale cursor; the engine stops writing */
export const FX_FENCED = 'FX_FENCED'

/** `FxJournalVersionError`: a journal record from a newer fxterm */
export const FX_JOURNAL_VERSION = 'FX_JOURNAL_VERSION'

/** a checkpoint over 4 MiB */
export const FX_CHECKPOINT_TOO_LARGE = 'FX_CHECKPOINT_TOO_LARGE'

/** `createFxEngine` got both `checkpoint` and `persistence` */
export const FX_ENGINE_OPTIONS = 'FX_ENGINE_OPTIONS'

/** no client id, or a sign-in endpoint that is not https (or loopback http) */
export const FX_SIGNIN_NOT_CONFIGURED = 'FX_SIGNIN_NOT_CONFIGURED'

/** the issuer answered but refused this page's origin */
export const FX_SIGNIN_CORS_REFUSED = 'FX_SIGNIN_CORS_REFUSED'

/** nothing answered at the issuer */
export const FX_SIGNIN_UNREACHABLE = 'FX_SIGNIN_UNREACHABLE'

/** the discovery document or an answer was not what OpenID / RFC 8628 describe */
export const FX_SIGNIN_BAD_RESPONSE = 'FX_SIGNIN_BAD_RESPONSE'

/** the person declined on the verification page */
export const FX_SIGNIN_DENIED = 'FX_SIGNIN_DENIED'

/** the code expired before it was approved */
export const FX_SIGNIN_EXPIRED = 'FX_SIGNIN_EXPIRED'

/** the issuer refused for another reason (its own words, masked, are in the message) */
export const FX_SIGNIN_REFUSED = 'FX_SIGNIN_REFUSED'

/** Esc, /logout or a closed tab stopped the sign-in */
export const FX_SIGNIN_CANCELLED = 'FX_SIGNIN_CANCELLED'

/** the refresh token was rejected: signed out */
export const FX_SIGNIN_REFRESH_REJECTED = 'FX_SIGNIN_REFRESH_REJECTED'
