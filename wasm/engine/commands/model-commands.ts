// /model (and its picker), /models, /fast and /provider, and the settings they persist
// (configStore ids `model`, `provider`, `fast`, `mode`). A value is written to the store only after
// the engine accepted it; a stored value that no longer fits is ignored with a `config.restore_error`.

import { Settings } from './settings'
import { LIBFX_MODEL_UNSUPPORTED_FAST } from '../error-codes'
import { setA11y } from './a11y'
import { stringBytes } from '../util/byte-buf'
import { sentence } from '../util/format'
import { JsonValue, J_OBJ } from '../util/json'
import { GRAY } from '../screen/ansi'
import { formatWindow, ModelInfo, ProviderInfo, shortModelName } from '../agent/catalog'
import { addProviderCommand, removeProviderCommand } from './own-server'

/** A model id as a server would accept it: printable, no spaces, not absurdly long. */
export function isModelId(id: string): bool {
  if (id.length == 0 || id.length > 200) return false
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i)
    if (c <= 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) return false
  }
  return true
}

/** Boot's `config: {model?, mode?, provider?, fast?}`: the settings saved by an earlier visit. */
export function restoreConfig(s: Settings, config: JsonValue | null): void {
  if (config == null || config.kind != J_OBJ) return
  // The provider first: a stored model belongs to it, and is dropped with it.
  const provider = config.getString('provider', '')
  const providerOk = provider.length == 0 || restore(s, 'provider', provider)
  const model = config.getString('model', '')
  if (model.length > 0 && providerOk) restore(s, 'model', model)
  const ids = ['mode', 'fast', 'a11y']
  for (let i = 0; i < ids.length; i++) {
    const value = config.getString(ids[i], '')
    if (value.length > 0) restore(s, ids[i], value)
  }
}

/** Applies one stored setting; an unusable one raises `config.restore_error` instead. */
export function restore(s: Settings, id: string, value: string): bool {
  const why = applySetting(s, id, value)
  if (why.length == 0) return true
  s.loop.event('{"type":"config.restore_error","id":"' + id + '","message":"' + why.replaceAll('"', "'") + '"}')
  return false
}

/** Why `value` cannot be used for `id` ('' when it was applied). Nothing is written back. */
function applySetting(s: Settings, id: string, value: string): string {
  if (id == 'provider') {
    const p = s.providers.find(value)
    if (p == null) return 'no provider named "' + value + '" is configured on this page'
    if (p != s.providers.active) activate(s, p)
    s.requestCatalog(p)
    return ''
  }
  if (id == 'model') {
    if (s.providers.active.name == 'demo' && value != 'demo') return 'the offline demo has one model'
    if (!isModelId(value)) return 'not a model id'
    s.loop.model = value
    return ''
  }
  if (id == 'mode') {
    if (value != 'ask' && value != 'auto') return 'expected ask or auto'
    s.setModeAsk(value == 'ask', false)
    return ''
  }
  if (id == 'a11y') {
    if (value != 'on' && value != 'off') return 'expected on or off'
    if ((value == 'on') != s.loop.announce) setA11y(s, value == 'on')
    return ''
  }
  if (id == 'fast') {
    if (value != 'on' && value != 'off') return 'expected on or off'
    s.loop.fast = value == 'on' && s.providers.active.name != 'demo'
    return ''
  }
  return 'unknown setting'
}

function activate(s: Settings, p: ProviderInfo): void {
  if (s.providers.active.name == 'demo' && p.name != 'demo' && s.loop.conv.messages.length > 0) s.leftDemo = true
  s.providers.active = p
  s.loop.provider = p.name
  s.loop.model = p.defaultModel
  s.loop.fast = false
  s.loop.compaction.offline = p.name == 'demo'
}

/** Called when a catalog arrives or the model changes: the context window follows the model. */
export function syncModelInfo(s: Settings): void {
  const p = s.providers.active
  const info = p.find(s.loop.model)
  s.loop.contextWindow = info != null ? info.contextWindow : 0
  if (s.loop.model.length == 0 && p.models.length > 0) {
    s.loop.model = p.models[0].id
    s.fx.config('model', s.loop.model)
    s.transcript.notice('Model: ' + s.loop.model + ' (the first ' + p.label + ' lists).', GRAY)
  }
  if (s.picks.picker.open && s.picks.pickingModels) s.picks.picker.setItems(modelIds(p), modelDetails(p))
}

export function modelIds(p: ProviderInfo): Array<string> {
  const out = new Array<string>()
  for (let i = 0; i < p.models.length; i++) out.push(p.models[i].id)
  return out
}

function modelDetails(p: ProviderInfo): Array<string> {
  const out = new Array<string>()
  for (let i = 0; i < p.models.length; i++) out.push(detail(p.models[i]))
  return out
}

function detail(m: ModelInfo): string {
  let s = m.contextWindow > 0 ? formatWindow(m.contextWindow) + ' context' : ''
  if (m.fastKnown && m.fast) s += (s.length > 0 ? ' · ' : '') + 'fast'
  if (!m.supportsToolUse) s += (s.length > 0 ? ' · ' : '') + 'no tools'
  return s
}

/** /model with no id: a picker over the active provider's catalog. */
export function openModelPicker(s: Settings): void {
  const p = s.providers.active
  s.picks.pickingModels = true
  s.picks.pickingProviders = false
  s.picks.picker.empty = p.loaded ? p.label + ' lists no models; set one with /model <id>.' : 'Loading the model list…'
  s.picks.picker.show('Choose a model on ' + p.label, modelIds(p), new Array<string>(), s.loop.model)
  syncModelInfo(s)
}

/** `/model` opens the picker; `/model <id>` sets it (checked against the catalog when known). */
export function modelCommand(s: Settings, arg: string): void {
  const t = s.transcript
  const p = s.providers.active
  if (arg.length == 0) {
    if (p.name == 'demo') {
      t.notice('Model: demo (the offline demo has one model; /provider lists model servers).', GRAY)
      return
    }
    s.requestCatalog(p)
    if (p.loaded && p.error.length > 0) {
      t.error(stringBytes('The model list of ' + p.label + ' could not be loaded: ' + sentence(p.error) + ' Set one with /model <id>.'))
      return
    }
    openModelPicker(s)
    return
  }
  if (p.name == 'demo') {
    t.error(stringBytes('The offline demo has one model. Connect a model server (/provider) to choose another.'))
    return
  }
  if (!isModelId(arg)) {
    t.error(stringBytes('"' + arg + '" is not a model id.'))
    return
  }
  if (p.loaded && p.models.length > 0 && p.find(arg) == null) {
    t.error(stringBytes('Unknown model ' + arg + ' on ' + p.label + '. /models lists the ' + p.models.length.toString() + ' it has.'))
    return
  }
  setModel(s, arg)
}

export function setModel(s: Settings, id: string): void {
  s.loop.model = id
  const info = s.providers.active.find(id)
  if (s.loop.fast && info != null && info.fastKnown && !info.fast) {
    s.loop.fast = false
    s.fx.config('fast', 'off')
  }
  syncModelInfo(s)
  s.fx.config('model', id)
  s.transcript.notice('Model set to ' + id + ' for the next request.', GRAY)
}

/** `/models`: the active provider's catalog, the current model marked. */
export function modelsCommand(s: Settings): void {
  const p = s.providers.active
  const t = s.transcript
  if (!p.loaded) {
    s.requestCatalog(p)
    t.notice('Loading the model list of ' + p.label + '… run /models again in a moment.', GRAY)
    return
  }
  if (p.error.length > 0) {
    t.error(stringBytes('The model list of ' + p.label + ' could not be loaded: ' + p.error))
    return
  }
  let text = 'Models on ' + p.label + ' (' + p.models.length.toString() + ')\n'
  for (let i = 0; i < p.models.length; i++) {
    const m = p.models[i]
    text += (m.id == s.loop.model ? '  ● ' : '    ') + m.id.padEnd(36) + ' ' + detail(m) + '\n'
  }
  text += 'Change with /model <id> or pick with /model.'
  t.lines(text)
}

/** `/fast`: toggles fast mode where the model offers it. */
export function fastCommand(s: Settings): void {
  const loop = s.loop
  const t = s.transcript
  const info = s.providers.active.find(loop.model)
  const unsupported = s.providers.active.name == 'demo' || (info != null && info.fastKnown && !info.fast)
  if (!loop.fast && unsupported) {
    t.error(stringBytes('Fast mode is not available for ' + loop.model + ' (' + LIBFX_MODEL_UNSUPPORTED_FAST + ').'))
    return
  }
  loop.fast = !loop.fast
  s.fx.config('fast', loop.fast ? 'on' : 'off')
  t.notice(loop.fast ? '⚡ Fast mode on for ' + shortModelName(loop.model) + '.' : 'Fast mode off.', GRAY)
}

/** What /provider shows in its key column. */
function keyState(s: Settings, p: ProviderInfo): string {
  if (p.key == 'not_needed') return 'not needed'
  if (p.key == 'optional') return p.saved ? 'saved' : p.unauthorized ? 'none' : 'not needed'
  if (p.key == 'key') return p.saved ? 'saved' : 'none'
  const c = s.providers.accountCredential
  if (c == 'signed_in') return 'signed in'
  if (c == 'key') return 'saved'
  if (c == 'env') return 'from the app'
  return 'none'
}

function cell(text: string, width: i32): string {
  return text.length >= width ? text + ' ' : text.padEnd(width)
}

/**
 * `/provider`: each provider on two rows, so a long base URL never wraps the table: its name, key
 * state and model, then its base URL. The active one is marked.
 */
function providerTable(s: Settings): string {
  const list = s.providers.list
  let nameWidth = 4
  for (let i = 0; i < list.length; i++) nameWidth = max(nameWidth, list[i].name.length + 1)
  let text = 'Providers\n'
  for (let i = 0; i < list.length; i++) {
    const p = list[i]
    const active = p == s.providers.active
    const model = active ? s.loop.model : p.defaultModel
    text += (active ? '  ● ' : '    ') + cell(p.name, nameWidth) + ' key ' + cell(keyState(s, p), 13) + ' model ' + (model.length > 0 ? model : '(from its list)') + '\n'
    text += '      ' + (p.baseUrl.length > 0 ? p.baseUrl : 'offline, recorded replies') + '\n'
  }
  text += '/provider <name> switches · /key <name> saves its key\n/provider add <name> <url> · /provider remove <name>'
  return text
}

/** `/provider` lists the providers; `/provider <name>` switches (and persists) it. */
export function providerCommand(s: Settings, arg: string): void {
  const t = s.transcript
  if (arg.length == 0) {
    t.lines(providerTable(s))
    return
  }
  if (arg.startsWith('add ') || arg == 'add') {
    addProviderCommand(s, arg.substring(3).trim())
    return
  }
  if (arg.startsWith('remove ') || arg == 'remove') {
    removeProviderCommand(s, arg.substring(6).trim(), providerCommand)
    return
  }
  const p = s.providers.find(arg)
  if (p == null) {
    t.error(stringBytes('Unknown provider ' + arg + '. Try one of: ' + s.providers.names() + '.'))
    return
  }
  if (s.loop.busy) s.loop.interrupt()
  activate(s, p)
  s.fx.config('provider', p.name)
  if (s.loop.model.length > 0) s.fx.config('model', s.loop.model)
  // Its answer is worth a line: the model picked from it, or why there is none (catalog()).
  p.announce = true
  if (p.loaded && p.error.length > 0) {
    p.requested = false
    p.loaded = false
  }
  s.requestCatalog(p)
  syncModelInfo(s)
  const model = s.loop.model.length > 0 ? ' · model ' + s.loop.model : p.loaded ? ' · choose a model with /model' : ' · asking it for its models…'
  t.notice('Provider: ' + p.name + (p.baseUrl.length > 0 ? ' (' + p.baseUrl + ')' : '') + model + keyNote(s, p) + '.', GRAY)
}

/** The provider line's word on keys: what to do when one is missing, or that none is needed. */
function keyNote(s: Settings, p: ProviderInfo): string {
  if (p.name == 'demo' || p.key == 'account') return ''
  if (p.saved) return ' · key saved'
  if (p.key == 'key' || p.unauthorized) return ' · no key yet: /key ' + p.name
  return ' · key not needed'
}

