// Sign-in and keys, as the engine sees them: it only shows states. /login, /logout and /key ask
// the host (an auth frame); the host runs the device flow, keeps the tokens and the key, and
// answers with display states (input frame 13). No token or key ever reaches the engine: while
// a key is typed, the host captures the keys itself and tells the engine only how many there are.

import { ByteBuf, stringBytes } from '../util/byte-buf'
import { JsonValue, parseJson, writeJsonString } from '../util/json'
import { Effects, OUT_AUTH } from '../abi/frames'
import { Rows } from '../screen/layout'
import { GRAY, GREEN, RESET, YELLOW, CYAN, BOLD } from '../screen/ansi'
import { grayRow } from '../screen/footer'
import * as K from '../screen/keys'
import * as S from './slash'
import { providerCommand, syncModelInfo } from './model-commands'
import { Settings } from './settings'

export const AUTH_IDLE = 0
export const AUTH_PREPARING = 1
export const AUTH_WAITING = 2
export const AUTH_KEY_ENTRY = 3

/** What the sign-in panel shows, and which credential the account provider has. */
export class AuthPanel {
  phase: i32 = AUTH_IDLE
  keyLength: i32 = 0
  /** signed_in | key | env | none; empty when the host did not say (no sign-in support). */
  credential: string = ''
  /** The provider a sign-in or a key is for (boot's `account`), e.g. ai-gateway. */
  account: string = ''
  /** Whether /login can sign in here (boot's `signIn`: the app configured a client id). */
  signIn: bool = true

  get modal(): bool {
    return this.phase != AUTH_IDLE
  }
}

/** Boot fields: `account` (the provider name), `signIn` and `credential` (what it has now). */
export function bootAuth(a: AuthPanel, v: JsonValue): void {
  a.account = v.getString('account', '')
  a.signIn = v.getBool('signIn', true)
  a.credential = v.getString('credential', '')
}

/** First run with no credential: one row offering the ways to a model. */
export function onboardingRow(s: Settings, a: AuthPanel): void {
  if (a.account.length == 0 || a.credential != 'none' || s.providers.active.name != 'demo') return
  s.transcript.notice(
    a.signIn
      ? 'No model yet, so this is the offline demo. /login signs in · /key saves an API key · /provider ollama uses a local model.'
      : 'No model yet, so this is the offline demo. /key saves an API key · /provider ollama uses a local model.',
    GRAY,
  )
}

/** Asks the host to do a sign-in action. */
function ask(fx: Effects, action: string): void {
  const at = fx.begin(OUT_AUTH, 0)
  fx.buf.str('{"action":')
  writeJsonString(fx.buf, action)
  fx.buf.byte(0x7d)
  fx.end(at)
}

/** /login, /logout, /key, /key clear. */
export function authCommand(s: Settings, a: AuthPanel, cmd: i32, arg: string): void {
  const t = s.transcript
  if (a.account.length == 0) {
    t.notice('Sign-in is not available on this page. To use a model, embed fxterm with env AI_GATEWAY_API_KEY, or open the page with ?baseUrl=… for a local server.', YELLOW)
    return
  }
  if (cmd == S.CMD_LOGIN && !a.signIn) {
    t.notice('Sign-in is not set up on this page: /key saves an API key, /provider ollama uses a local model.', YELLOW)
  } else if (cmd == S.CMD_LOGIN) {
    a.phase = AUTH_PREPARING
    ask(s.fx, 'login')
  } else if (cmd == S.CMD_LOGOUT) ask(s.fx, 'logout')
  else if (arg == 'clear') ask(s.fx, 'key_clear')
  else if (arg.length > 0) t.error(stringBytes('/key takes no key on the command line (it would stay in your history). Run /key alone and paste it.'))
  else {
    // From this frame on the page must not echo typed keys: they are the secret.
    a.phase = AUTH_KEY_ENTRY
    a.keyLength = 0
    ask(s.fx, 'key')
  }
}

/** Keys while sign-in waits: Enter opens the page again, Esc or Ctrl+C cancels. */
export function authKey(fx: Effects, a: AuthPanel, k: K.Key): void {
  if (a.phase == AUTH_KEY_ENTRY) return // the host captures these; nothing to do
  if (k.kind == K.K_ENTER) ask(fx, 'login_reopen')
  else if (k.kind == K.K_ESCAPE || (k.kind == K.K_CTRL && k.cp == 0x63)) ask(fx, 'login_cancel')
}

/** A display state from the host (input frame 13); false when it could not be read. */
export function applyAuthState(s: Settings, a: AuthPanel, json: Uint8Array, start: i32, end: i32): bool {
  const v = parseJson(json, start, end)
  if (v == null) return false
  const t = s.transcript
  const state = v.getString('state', '')
  const credential = v.getString('credential', '')
  if (credential.length > 0) a.credential = credential
  if (state == 'preparing') a.phase = AUTH_PREPARING
  else if (state == 'waiting') {
    a.phase = AUTH_WAITING
    t.lines(panelText(v.getString('url', ''), v.getString('code', '')))
  } else if (state == 'signed_in') {
    // Another tab's sign-in leaves a sign-in running here alone (its own outcome follows).
    const elsewhere = v.getString('message', '')
    if (elsewhere.length == 0) a.phase = AUTH_IDLE
    t.notice(elsewhere.length > 0 ? '✓ ' + elsewhere : '✓ Signed in.', GREEN)
    useAccount(s, a)
  } else if (state == 'failed') {
    a.phase = AUTH_IDLE
    t.error(stringBytes('Sign-in failed: ' + v.getString('message', 'unknown error')))
  } else if (state == 'cancelled') {
    a.phase = AUTH_IDLE
    t.notice('Sign-in cancelled.', GRAY)
  } else if (state == 'signed_out') {
    a.phase = a.phase == AUTH_KEY_ENTRY ? a.phase : AUTH_IDLE
    t.notice(v.getString('message', 'Signed out.'), GRAY)
    leaveAccountIfEmpty(s, a)
  } else if (state == 'key_entry') {
    a.phase = AUTH_KEY_ENTRY
    a.keyLength = <i32>v.getNumber('length', 0)
  } else if (state == 'key_saved') {
    a.phase = AUTH_IDLE
    t.notice('✓ Key saved (sealed in this browser). /key clear removes it.', GREEN)
    useAccount(s, a)
  } else if (state == 'key_cancelled') {
    a.phase = AUTH_IDLE
    t.notice('No key was saved.', GRAY)
  } else if (state == 'key_cleared') {
    t.notice(v.getString('message', 'Key removed.'), GRAY)
    leaveAccountIfEmpty(s, a)
  } else if (state == 'credential') {
    if (v.getBool('startup', false)) startWith(s, a)
    else leaveAccountIfEmpty(s, a) // another tab signed in or out
  }
  return true
}

/** The verification URL (a link only when it is plain printable http(s)) and the code. */
function panelText(url: string, code: string): string {
  const safeUrl = printable(url, 2048)
  const safeCode = printable(code, 64)
  const link = safeUrl.startsWith('https://') || safeUrl.startsWith('http://')
  const shown = link ? '\x1b]8;;' + safeUrl + '\x1b\\' + safeUrl + '\x1b]8;;\x1b\\' : safeUrl
  return BOLD + 'Sign in' + RESET + '\n' +
    '  Open  ' + CYAN + shown + RESET + '\n' +
    '  Code  ' + BOLD + safeCode + RESET
}

/** `s` without anything but printable ASCII (the issuer's answer is untrusted), cut to `max`. */
function printable(s: string, maxLen: i32): string {
  let out = ''
  for (let i = 0; i < s.length && out.length < maxLen; i++) {
    const c = s.charCodeAt(i)
    if (c > 0x20 && c < 0x7f) out += String.fromCharCode(c)
  }
  return out
}

/**
 * Once after boot (the host reads the stores without delaying start-up): with a credential, a
 * page that would start on the offline demo uses the account's provider; without, one row says
 * how to get a model.
 */
function startWith(s: Settings, a: AuthPanel): void {
  const p = s.providers.find(a.account)
  if (a.credential == 'none') onboardingRow(s, a)
  else if (p != null && s.providers.active.name == 'demo' && s.loop.conv.messages.length == 0) {
    s.providers.active = p
    s.loop.provider = p.name
    s.loop.model = p.defaultModel
    s.loop.fast = false
    s.loop.compaction.offline = false
    s.requestCatalog(p)
    syncModelInfo(s)
    s.transcript.notice('Using ' + p.label + ' · ' + p.defaultModel + ' (' + signInStatus(a) + ').', GRAY)
  }
}

function useAccount(s: Settings, a: AuthPanel): void {
  const name = a.account
  if (s.providers.active.name != name && s.providers.find(name) != null) providerCommand(s, name)
}

function leaveAccountIfEmpty(s: Settings, a: AuthPanel): void {
  if (a.credential == 'none' && s.providers.active.name == a.account && s.providers.find('demo') != null) providerCommand(s, 'demo')
}

/** The panel's live row: the state line, or the masked key being typed. */
export function authRows(a: AuthPanel, live: Rows, cols: i32): void {
  if (a.phase == AUTH_IDLE) return
  live.add(new ByteBuf(0), 0)
  if (a.phase == AUTH_PREPARING) grayRow(live, cols, '  Preparing sign-in…  (Esc cancels)', YELLOW)
  else if (a.phase == AUTH_WAITING) grayRow(live, cols, '  Waiting for authorization…  (Enter opens the page again · Esc cancels)', YELLOW)
  else {
    const dots = min(a.keyLength, max(0, cols - 40))
    let masked = ''
    for (let i = 0; i < dots; i++) masked += '•'
    grayRow(live, cols, '  API key: ' + masked + (a.keyLength > dots ? '…' : '') + '  (paste it · Enter saves · Esc cancels)', YELLOW)
  }
}

/** The /status line for sign-in. */
export function signInStatus(a: AuthPanel): string {
  const c = a.credential
  if (c == 'signed_in') return 'signed in'
  if (c == 'key') return 'API key saved in this browser'
  if (c == 'env') return 'key from the app'
  return 'not signed in'
}
