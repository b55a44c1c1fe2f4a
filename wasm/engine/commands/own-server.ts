// A person's own model server, on the engine thread: the URL typed inline after the picker's
// "another server", `/provider add <name> <url>` and `/provider remove <name>`. The engine knows
// no URL rules: it hands the text to the host (a `provider_add` or `provider_remove` action),
// which checks it, keeps it and answers with input 20, whose `use` names the server to switch to.

import { Settings } from './settings'
import { stringBytes } from '../util/byte-buf'
import { writeJsonString } from '../util/json'
import { OUT_ACTION } from '../abi/frames'
import { GRAY, YELLOW } from '../screen/ansi'
import { Rows } from '../screen/layout'
import { grayRow } from '../screen/footer'
import { ProviderInfo } from '../agent/catalog'

/** Where the composer's text goes while `askingUrl`: the row above it says so. */
export const URL_PROMPT = '  Server URL, e.g. http://localhost:8080/v1 · Enter adds it · Esc cancels'

/** The picker's "another server": the composer takes the URL next. */
export function askServerUrl(s: Settings): void {
  s.askingUrl = true
}

/** The row above the composer while it holds a URL. */
export function urlEntryRows(s: Settings, live: Rows, cols: i32): void {
  if (!s.askingUrl) return
  grayRow(live, cols, URL_PROMPT, YELLOW)
}

/** Esc or Ctrl+C while the URL is typed: nothing is added. */
export function cancelServerUrl(s: Settings): void {
  s.askingUrl = false
  s.transcript.notice('No server was added. /model offers it again.', GRAY)
}

/** Enter while the URL is typed: the host names the server after its host and switches to it. */
export function submitServerUrl(s: Settings, text: string): void {
  const url = text.trim()
  if (url.length == 0) {
    cancelServerUrl(s)
    return
  }
  s.askingUrl = false
  if (url.indexOf(' ') >= 0) {
    s.transcript.error(stringBytes('A URL has no spaces. Run /model and choose "another server" to try again.'))
    return
  }
  sendAdd(s, '', url, 'openai')
}

/** Whether this provider keeps a key of its own (/key <name>): a hosted API, or maybe a person's server. */
export function takesOwnKey(p: ProviderInfo): bool {
  return p.key == 'key' || p.key == 'optional'
}

/** `/provider add <name> <baseUrl> [anthropic]`: the host checks and keeps it, then it is used. */
export function addProviderCommand(s: Settings, arg: string): void {
  const words = arg.split(' ').filter((w) => w.length > 0)
  if (words.length < 2 || words.length > 3 || (words.length == 3 && words[2] != 'anthropic' && words[2] != 'openai')) {
    s.transcript.error(stringBytes('Usage: /provider add <name> <baseUrl> [anthropic] (an OpenAI-compatible server unless anthropic is named).'))
    return
  }
  sendAdd(s, words[0], words[1], words.length == 3 ? words[2] : 'openai')
}

function sendAdd(s: Settings, name: string, baseUrl: string, wire: string): void {
  const at = s.fx.begin(OUT_ACTION, 0)
  s.fx.buf.str('{"action":"provider_add","name":')
  writeJsonString(s.fx.buf, name)
  s.fx.buf.str(',"baseUrl":')
  writeJsonString(s.fx.buf, baseUrl)
  s.fx.buf.str(',"wire":')
  writeJsonString(s.fx.buf, wire)
  s.fx.buf.byte(0x7d)
  s.fx.end(at)
}

/**
 * `/provider remove <name>`: only a server a person added (presets stay). The engine drops it at
 * once; the host forgets its address and any key saved for it. When it was in use, the page's first provider (the offline
 * demo where there is one) takes its place, and the line says so.
 */
export function removeProviderCommand(s: Settings, name: string, switchTo: (s: Settings, name: string) => void): void {
  const t = s.transcript
  if (name.length == 0 || name.indexOf(' ') >= 0) {
    t.error(stringBytes('Usage: /provider remove <name> (a server added with /provider add).'))
    return
  }
  const p = s.providers.find(name)
  if (p == null) {
    t.error(stringBytes('There is no provider named ' + name + '. /provider lists them.'))
    return
  }
  if (!p.added) {
    t.error(stringBytes(name + ' is built in, so it stays. Only servers added with /provider add can be removed.'))
    return
  }
  const wasActive = s.providers.active == p
  s.providers.remove(name)
  const at = s.fx.begin(OUT_ACTION, 0)
  s.fx.buf.str('{"action":"provider_remove","name":')
  writeJsonString(s.fx.buf, name)
  s.fx.buf.byte(0x7d)
  s.fx.end(at)
  if (!wasActive || s.providers.list.length == 0) {
    t.notice('Removed ' + name + ' (' + p.baseUrl + ') and any key saved for it.', GRAY)
    return
  }
  const fallback = s.providers.find('demo') != null ? 'demo' : s.providers.list[0].name
  t.notice('Removed ' + name + ' (' + p.baseUrl + ') and any key saved for it. It was in use, so ' + fallback + ' is now.', GRAY)
  switchTo(s, fallback)
}
