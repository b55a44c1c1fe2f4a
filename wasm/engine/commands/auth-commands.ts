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
import { ProviderInfo } from '../agent/catalog'
import { GITHUB_KEY_NAME } from '../input/secret-line'
import { askServerUrl, takesOwnKey } from './own-server'

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
  /** The provider whose key is being typed. */
  keyFor: string = ''

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
      ? 'No model yet, so this is the offline demo. /model picks a real one (your key, a local server or a URL) · /login signs in.'
      : 'No model yet, so this is the offline demo. /model picks a real one: your key, a local server or a URL.',
    GRAY,
  )
}

/** The entry of the provider picker that adds a server by URL. */
export const ANOTHER_SERVER = 'another server'

/**
 * `/model` on the offline demo: every way to a real model in one list. A hosted API asks for its
 * key next and then opens its model list; a local server is asked for its models; the last entry
 * says how to add any URL. Three steps from a fresh page to a real reply.
 */
export function openProviderPicker(s: Settings, a: AuthPanel): void {
  const items = new Array<string>()
  const details = new Array<string>()
  // This machine's servers and a person's own come first, with "another server" after them:
  // on a short screen they show without scrolling past the hosted APIs.
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i < s.providers.list.length; i++) {
      const p = s.providers.list[i]
      const near = p.name == 'demo' || p.added || (p.key != 'key' && p.name != a.account)
      if ((pass == 0) != near) continue
      items.push(p.name)
      details.push(pickerDetail(p, a))
    }
    if (pass == 0) {
      items.push(ANOTHER_SERVER)
      details.push('type its URL next')
    }
  }
  s.picks.pickingModels = false
  s.picks.pickingProviders = true
  s.picks.picker.empty = 'No provider matches.'
  s.picks.picker.show('Choose where your model runs', items, details, '', 'choices')
}

/** What choosing a provider in the picker will do. */
function pickerDetail(p: ProviderInfo, a: AuthPanel): string {
  if (p.name == 'demo') return 'offline, recorded replies'
  if (p.name == a.account) return a.signIn ? 'sign in with /login, or paste an AI Gateway key' : 'paste an AI Gateway key'
  // Its API refuses browser pages (no CORS): a key alone would not help.
  if (p.needsProxy) return 'needs a proxy: see docs/providers.md, "Hosted APIs from a browser page"'
  if (p.key == 'key') return (p.saved ? 'key saved' : 'paste a key') + ', then pick a model'
  if (p.added) return 'your server (' + hostOf(p.baseUrl) + ')'
  return 'on this machine (' + hostOf(p.baseUrl) + ')'
}

/** A provider chosen in the provider picker. */
export function providerPicked(s: Settings, a: AuthPanel, name: string): void {
  s.picks.pickingProviders = false
  if (name == ANOTHER_SERVER) {
    askServerUrl(s)
    return
  }
  const p = s.providers.find(name)
  if (p == null || p.name == 'demo') return
  // Its model list opens once its catalog is in: the last of the three steps.
  p.pickModel = true
  const needsKey = (p.key == 'key' && !p.saved) || (p.name == a.account && a.credential == 'none')
  if (needsKey) keyCommand(s, a, p.name)
  else providerCommand(s, p.name)
}

/** Asks the host to do a sign-in action; `provider` names whose key /key is about. */
function ask(fx: Effects, action: string, provider: string = ''): void {
  const at = fx.begin(OUT_AUTH, 0)
  fx.buf.str('{"action":')
  writeJsonString(fx.buf, action)
  if (provider.length > 0) {
    fx.buf.str(',"provider":')
    writeJsonString(fx.buf, provider)
  }
  fx.buf.byte(0x7d)
  fx.end(at)
}

/** Whose key a bare /key is for: the active provider when it takes a key of its own, else the account's. */
function keyTarget(s: Settings, a: AuthPanel): string {
  const p = s.providers.active
  return takesOwnKey(p) ? p.name : a.account
}

/** /login, /logout, /key [provider], /key clear [provider]. */
export function authCommand(s: Settings, a: AuthPanel, cmd: i32, arg: string): void {
  const t = s.transcript
  if (cmd == S.CMD_KEY) {
    keyCommand(s, a, arg)
    return
  }
  if (a.account.length == 0) {
    t.notice('Sign-in is not available on this page. To use a model, embed fxterm with env AI_GATEWAY_API_KEY, or open the page with ?baseUrl=… for a local server.', YELLOW)
    return
  }
  if (cmd == S.CMD_LOGIN && !a.signIn) {
    t.notice('Sign-in is not set up on this page: /key <provider> saves an API key (/provider lists them), /provider ollama uses a local model.', YELLOW)
  } else if (cmd == S.CMD_LOGIN) {
    a.phase = AUTH_PREPARING
    ask(s.fx, 'login')
  } else ask(s.fx, 'logout')
}

/** `/key`, `/key <provider>`, `/key clear`, `/key clear <provider>` (or `/key <provider> clear`). */
export function keyCommand(s: Settings, a: AuthPanel, arg: string): void {
  const t = s.transcript
  const words = arg.split(' ').filter((w) => w.length > 0)
  let clear = false
  let name = ''
  for (let i = 0; i < words.length; i++) {
    if (words[i] == 'clear' && !clear) clear = true
    else if (name.length == 0 && (s.providers.find(words[i]) != null || words[i] == GITHUB_KEY_NAME)) name = words[i]
    else {
      // Anything else may be the key itself: never echo it, and never keep it.
      t.error(stringBytes('/key takes a provider name, not the key (it would stay in your history). Run /key <provider> and paste the key.'))
      return
    }
  }
  if (name.length == 0) name = keyTarget(s, a)
  const p = s.providers.find(name)
  if (name != GITHUB_KEY_NAME && (name.length == 0 || p == null || (p.key == 'not_needed' && name != a.account))) {
    t.notice((name.length > 0 ? name + ' needs no key. ' : '') + 'Keys are for: ' + keyedNames(s, a) + '. Run /key <provider>.', YELLOW)
    return
  }
  if (clear) {
    ask(s.fx, 'key_clear', name)
    return
  }
  // From this frame on the page must not echo typed keys: they are the secret.
  a.phase = AUTH_KEY_ENTRY
  a.keyLength = 0
  a.keyFor = name
  ask(s.fx, 'key', name)
}

function keyedNames(s: Settings, a: AuthPanel): string {
  let out = ''
  for (let i = 0; i < s.providers.list.length; i++) {
    const p = s.providers.list[i]
    if (p.key == 'not_needed' && p.name != a.account) continue
    out += (out.length > 0 ? ', ' : '') + p.name
  }
  // A token for git's GitHub remotes, not a model's key.
  return out + ', ' + GITHUB_KEY_NAME + ' (git)'
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
  if (credential.length > 0) {
    a.credential = credential
    s.providers.accountCredential = credential
  }
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
    const name = v.getString('provider', a.account)
    const p = s.providers.find(name)
    if (p != null && takesOwnKey(p)) p.saved = true
    t.notice('✓ Key for ' + name + ' saved (sealed in this browser; sent only to ' + (p != null && p.baseUrl.length > 0 ? hostOf(p.baseUrl) : name == GITHUB_KEY_NAME ? 'api.github.com' : name) + '). /key clear ' + name + ' removes it.', GREEN)
    if (name == a.account) useAccount(s, a)
    else if (p != null && s.providers.active != p) providerCommand(s, name)
    else if (p != null) offerModels(s, p)
  } else if (state == 'key_cancelled') {
    a.phase = AUTH_IDLE
    const p = s.providers.find(a.keyFor)
    if (p != null) p.pickModel = false
    t.notice('No key was saved.', GRAY)
  } else if (state == 'key_cleared') {
    t.notice(v.getString('message', 'Key removed.'), GRAY)
    const p = s.providers.find(v.getString('provider', a.account))
    if (p != null && takesOwnKey(p)) p.saved = false
    leaveAccountIfEmpty(s, a)
  } else if (state == 'keys') {
    s.providers.setSaved(v)
  } else if (state == 'credential') {
    if (v.getBool('startup', false)) startWith(s, a)
    else leaveAccountIfEmpty(s, a) // another tab signed in or out
  }
  return true
}

/** `https://api.openai.com/v1` → `api.openai.com`. */
export function hostOf(url: string): string {
  const start = url.indexOf('://')
  const rest = start >= 0 ? url.substring(start + 3) : url
  const slash = rest.indexOf('/')
  return slash >= 0 ? rest.substring(0, slash) : rest
}

/** After a key arrives for the active provider: its catalog may now load, so ask again. */
function offerModels(s: Settings, p: ProviderInfo): void {
  p.requested = false
  p.loaded = false
  s.requestCatalog(p)
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
    const dots = min(a.keyLength, max(0, cols - 40 - a.keyFor.length))
    let masked = ''
    for (let i = 0; i < dots; i++) masked += '•'
    const label = a.keyFor == GITHUB_KEY_NAME ? 'GitHub token: ' : a.keyFor.length > 0 ? a.keyFor + ' API key: ' : 'API key: '
    grayRow(live, cols, '  ' + label + masked + (a.keyLength > dots ? '…' : '') + '  (paste it · Enter saves · Esc cancels)', YELLOW)
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
