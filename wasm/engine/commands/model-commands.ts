// /model, /models, /fast and /provider, and the settings they persist (configStore ids
// `model`, `provider`, `fast`, `mode`). A value is written to the store only after the engine
// accepted it; a stored value that no longer fits is ignored with a `config.restore_error`.

import { Engine } from '../engine'
import { LIBFX_MODEL_UNSUPPORTED_FAST } from '../error-codes'
import { setA11y } from './a11y'
import { stringBytes } from '../util/byte-buf'
import { JsonValue, J_OBJ } from '../util/json'
import { GRAY } from '../terminal/ansi'
import { formatWindow, ModelInfo, ProviderInfo, shortModelName } from '../agent/catalog'
import { openModelPicker } from './pickers'

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
export function restoreConfig(engine: Engine, config: JsonValue | null): void {
  if (config == null || config.kind != J_OBJ) return
  // The provider first: a stored model belongs to it, and is dropped with it.
  const provider = config.getString('provider', '')
  const providerOk = provider.length == 0 || restore(engine, 'provider', provider)
  const model = config.getString('model', '')
  if (model.length > 0 && providerOk) restore(engine, 'model', model)
  const ids = ['mode', 'fast', 'a11y']
  for (let i = 0; i < ids.length; i++) {
    const value = config.getString(ids[i], '')
    if (value.length > 0) restore(engine, ids[i], value)
  }
}

/** Applies one stored setting; an unusable one raises `config.restore_error` instead. */
export function restore(engine: Engine, id: string, value: string): bool {
  const why = applySetting(engine, id, value)
  if (why.length == 0) return true
  engine.event('{"type":"config.restore_error","id":"' + id + '","message":"' + why.replaceAll('"', "'") + '"}')
  return false
}

/** Why `value` cannot be used for `id` ('' when it was applied). Nothing is written back. */
function applySetting(engine: Engine, id: string, value: string): string {
  if (id == 'provider') {
    const p = engine.providers.find(value)
    if (p == null) return 'no provider named "' + value + '" is configured on this page'
    if (p != engine.providers.active) activate(engine, p)
    engine.requestCatalog(p)
    return ''
  }
  if (id == 'model') {
    if (engine.providers.active.name == 'demo' && value != 'demo') return 'the offline demo has one model'
    if (!isModelId(value)) return 'not a model id'
    engine.loop.model = value
    return ''
  }
  if (id == 'mode') {
    if (value != 'ask' && value != 'auto') return 'expected ask or auto'
    engine.setModeAsk(value == 'ask', false)
    return ''
  }
  if (id == 'a11y') {
    if (value != 'on' && value != 'off') return 'expected on or off'
    if ((value == 'on') != engine.loop.announce) setA11y(engine, value == 'on')
    return ''
  }
  if (id == 'fast') {
    if (value != 'on' && value != 'off') return 'expected on or off'
    engine.loop.fast = value == 'on' && engine.providers.active.name != 'demo'
    return ''
  }
  return 'unknown setting'
}

function activate(engine: Engine, p: ProviderInfo): void {
  engine.providers.active = p
  engine.loop.provider = p.name
  engine.loop.model = p.defaultModel
  engine.loop.fast = false
  engine.loop.compaction.offline = p.name == 'demo'
}

/** Called when a catalog arrives or the model changes: the context window follows the model. */
export function syncModelInfo(engine: Engine): void {
  const p = engine.providers.active
  const info = p.find(engine.loop.model)
  engine.loop.contextWindow = info != null ? info.contextWindow : 0
  if (engine.loop.model.length == 0 && p.models.length > 0) {
    engine.loop.model = p.models[0].id
    engine.fx.config('model', engine.loop.model)
    engine.transcript.notice('Model: ' + engine.loop.model + ' (the first ' + p.label + ' lists).', GRAY)
  }
  if (engine.picker.open && engine.pickingModels) engine.picker.setItems(modelIds(p), modelDetails(p))
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

/** `/model` opens the picker; `/model <id>` sets it (checked against the catalog when known). */
export function modelCommand(engine: Engine, arg: string): void {
  const t = engine.transcript
  const p = engine.providers.active
  if (arg.length == 0) {
    if (p.name == 'demo') {
      t.notice('Model: demo (the offline demo has one model; /provider lists model servers).', GRAY)
      return
    }
    engine.requestCatalog(p)
    if (p.loaded && p.error.length > 0) {
      t.error(stringBytes('The model list of ' + p.label + ' could not be loaded: ' + p.error + ' Set one with /model <id>.'))
      return
    }
    openModelPicker(engine)
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
  setModel(engine, arg)
}

export function setModel(engine: Engine, id: string): void {
  engine.loop.model = id
  const info = engine.providers.active.find(id)
  if (engine.loop.fast && info != null && info.fastKnown && !info.fast) {
    engine.loop.fast = false
    engine.fx.config('fast', 'off')
  }
  syncModelInfo(engine)
  engine.fx.config('model', id)
  engine.transcript.notice('Model set to ' + id + ' for the next request.', GRAY)
}

/** `/models`: the active provider's catalog, the current model marked. */
export function modelsCommand(engine: Engine): void {
  const p = engine.providers.active
  const t = engine.transcript
  if (!p.loaded) {
    engine.requestCatalog(p)
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
    text += (m.id == engine.loop.model ? '  ● ' : '    ') + m.id.padEnd(36) + ' ' + detail(m) + '\n'
  }
  text += 'Change with /model <id> or pick with /model.'
  t.lines(text)
}

/** `/fast`: toggles fast mode where the model offers it. */
export function fastCommand(engine: Engine): void {
  const loop = engine.loop
  const t = engine.transcript
  const info = engine.providers.active.find(loop.model)
  const unsupported = engine.providers.active.name == 'demo' || (info != null && info.fastKnown && !info.fast)
  if (!loop.fast && unsupported) {
    t.error(stringBytes('Fast mode is not available for ' + loop.model + ' (' + LIBFX_MODEL_UNSUPPORTED_FAST + ').'))
    return
  }
  loop.fast = !loop.fast
  engine.fx.config('fast', loop.fast ? 'on' : 'off')
  t.notice(loop.fast ? '⚡ Fast mode on for ' + shortModelName(loop.model) + '.' : 'Fast mode off.', GRAY)
}

/** `/provider` lists the providers; `/provider <name>` switches (and persists) it. */
export function providerCommand(engine: Engine, arg: string): void {
  const t = engine.transcript
  const list = engine.providers.list
  if (arg.length == 0) {
    let text = 'Providers\n'
    for (let i = 0; i < list.length; i++) {
      const p = list[i]
      text += (p == engine.providers.active ? '  ● ' : '    ') + p.name.padEnd(14) + ' ' + p.label + '\n'
    }
    text += 'Switch with /provider <name>.'
    t.lines(text)
    return
  }
  const p = engine.providers.find(arg)
  if (p == null) {
    t.error(stringBytes('Unknown provider ' + arg + '. Try one of: ' + engine.providers.names() + '.'))
    return
  }
  if (engine.loop.busy) engine.loop.interrupt()
  activate(engine, p)
  engine.fx.config('provider', p.name)
  if (engine.loop.model.length > 0) engine.fx.config('model', engine.loop.model)
  engine.requestCatalog(p)
  syncModelInfo(engine)
  const model = engine.loop.model.length > 0 ? ' · model ' + engine.loop.model : ' · choose a model with /model'
  t.notice('Provider: ' + p.name + ' (' + p.label + ')' + model, GRAY)
}
