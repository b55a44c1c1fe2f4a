// Sign-in and keys, as the engine sees them: it only shows states. /login, /logout and /key ask
// the host (an auth frame); the host runs the device flow, keeps the tokens and the key, and
// answers with display states (input frame 13). No token or key ever reaches the engine: while
// a key is typed, the host captures the keys itself and tells the engine only how many there are.

import { Engine } from '../engine'
import { ByteBuf, stringBytes } from '../util/byte-buf'
import { JsonValue, parseJson, writeJsonString } from '../util/json'
import { OUT_AUTH } from '../abi/frames'
import { Rows } from '../terminal/layout'
import { GRAY, GREEN, RESET, YELLOW, CYAN, BOLD } from '../terminal/ansi'
import { grayRow } from '../terminal/footer'
import * as K from '../terminal/keys'
import * as S from './slash'
import { providerCommand, syncModelInfo } from './model-commands'

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

  get modal(): bool {
    return this.phase != AUTH_IDLE
  }
}

/** Boot fields: `account` (the provider name) and `credential` (what it has now). */
export function bootAuth(engine: Engine, v: JsonValue): void {
  engine.auth.account = v.getString('account', '')
  engine.auth.credential = v.getString('credential', '')
}

/** First run with no credential: one row offering the ways to a model. */
export function onboardingRow(engine: Engine): void {
  const a = engine.auth
  if (a.account.length == 0 || a.credential != 'none' || engine.providers.active.name != 'demo') return
  engine.transcript.notice('No model yet, so this is the offline demo. /login signs in · /key saves an API key · /provider ollama uses a local model.', GRAY)
}

/** Asks the host to do a sign-in action. */
function ask(engine: Engine, action: string): void {
  const at = engine.fx.begin(OUT_AUTH, 0)
  engine.fx.buf.str('{"action":')
  writeJsonString(engine.fx.buf, action)
  engine.fx.buf.byte(0x7d)
  engine.fx.end(at)
}

/** /login, /logout, /key, /key clear. */
export function authCommand(engine: Engine, cmd: i32, arg: string): void {
  const a = engine.auth
  const t = engine.transcript
  if (a.account.length == 0) {
    t.notice('Sign-in is not available on this page. To use a model, embed fxterm with env AI_GATEWAY_API_KEY, or open the page with ?baseUrl=… for a local server.', YELLOW)
    return
  }
  if (cmd == S.CMD_LOGIN) {
    a.phase = AUTH_PREPARING
    ask(engine, 'login')
  } else if (cmd == S.CMD_LOGOUT) ask(engine, 'logout')
  else if (arg == 'clear') ask(engine, 'key_clear')
  else if (arg.length > 0) t.error(stringBytes('/key takes no key on the command line (it would stay in your history). Run /key alone and paste it.'))
  else {
    // From this frame on the page must not echo typed keys: they are the secret.
    a.phase = AUTH_KEY_ENTRY
    a.keyLength = 0
    ask(engine, 'key')
  }
}

/** Keys while sign-in waits: Enter opens the page again, Esc or Ctrl+C cancels. */
export function authKey(engine: Engine, k: K.Key): void {
  if (engine.auth.phase == AUTH_KEY_ENTRY) return // the host captures these; nothing to do
  if (k.kind == K.K_ENTER) ask(engine, 'login_reopen')
  else if (k.kind == K.K_ESCAPE || (k.kind == K.K_CTRL && k.cp == 0x63)) ask(engine, 'login_cancel')
}

/** A display state from the host (input frame 13). */
export function authState(engine: Engine, json: Uint8Array, start: i32, end: i32): void {
  const v = parseJson(json, start, end)
  if (v == null) return
  const a = engine.auth
  const t = engine.transcript
  const state = v.getString('state', '')
  const credential = v.getString('credential', '')
  if (credential.length > 0) a.credential = credential
  engine.markDirty()
  if (state == 'preparing') a.phase = AUTH_PREPARING
  else if (state == 'waiting') {
    a.phase = AUTH_WAITING
    t.lines(panelText(v.getString('url', ''), v.getString('code', '')))
  } else if (state == 'signed_in') {
    // Another tab's sign-in leaves a sign-in running here alone (its own outcome follows).
    const elsewhere = v.getString('message', '')
    if (elsewhere.length == 0) a.phase = AUTH_IDLE
    t.notice(elsewhere.length > 0 ? '✓ ' + elsewhere : '✓ Signed in.', GREEN)
    useAccount(engine)
  } else if (state == 'failed') {
    a.phase = AUTH_IDLE
    t.error(stringBytes('Sign-in failed: ' + v.getString('message', 'unknown error')))
  } else if (state == 'cancelled') {
    a.phase = AUTH_IDLE
    t.notice('Sign-in cancelled.', GRAY)
  } else if (state == 'signed_out') {
    a.phase = a.phase == AUTH_KEY_ENTRY ? a.phase : AUTH_IDLE
    t.notice(v.getString('message', 'Signed out.'), GRAY)
    leaveAccountIfEmpty(engine)
  } else if (state == 'key_entry') {
    a.phase = AUTH_KEY_ENTRY
    a.keyLength = <i32>v.getNumber('length', 0)
  } else if (state == 'key_saved') {
    a.phase = AUTH_IDLE
    t.notice('✓ Key saved (sealed in this browser). /key clear removes it.', GREEN)
    useAccount(engine)
  } else if (state == 'key_cancelled') {
    a.phase = AUTH_IDLE
    t.notice('No key was saved.', GRAY)
  } else if (state == 'key_cleared') {
    t.notice(v.getString('message', 'Key removed.'), GRAY)
    leaveAccountIfEmpty(engine)
  } else if (state == 'credential') {
    if (v.getBool('startup', false)) startWith(engine)
    else leaveAccountIfEmpty(engine) // another tab signed in or out
  }
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
function startWith(engine: Engine): void {
  const a = engine.auth
  const p = engine.providers.find(a.account)
  if (a.credential == 'none') onboardingRow(engine)
  else if (p != null && engine.providers.active.name == 'demo' && engine.loop.conv.messages.length == 0) {
    engine.providers.active = p
    engine.loop.provider = p.name
    engine.loop.model = p.defaultModel
    engine.loop.fast = false
    engine.loop.compaction.offline = false
    engine.requestCatalog(p)
    syncModelInfo(engine)
    engine.transcript.notice('Using ' + p.label + ' · ' + p.defaultModel + ' (' + signInStatus(engine) + ').', GRAY)
  }
}

function useAccount(engine: Engine): void {
  const name = engine.auth.account
  if (engine.providers.active.name != name && engine.providers.find(name) != null) providerCommand(engine, name)
}

function leaveAccountIfEmpty(engine: Engine): void {
  const a = engine.auth
  if (a.credential == 'none' && engine.providers.active.name == a.account && engine.providers.find('demo') != null) providerCommand(engine, 'demo')
}

/** The panel's live row: the state line, or the masked key being typed. */
export function authRows(engine: Engine, live: Rows, cols: i32): void {
  const a = engine.auth
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
export function signInStatus(engine: Engine): string {
  const c = engine.auth.credential
  if (c == 'signed_in') return 'signed in'
  if (c == 'key') return 'API key saved in this browser'
  if (c == 'env') return 'key from the app'
  return 'not signed in'
}
