// What the engine knows about providers and their models: the providers the host offers (from
// boot) and each one's model catalog (sent by the host when it has fetched `GET {base}/models`).
// The catalog gives context windows for the status line and compaction, and says which models
// accept fast mode or an effort level.

import { JsonValue, J_ARR, J_OBJ, J_STR } from '../util/json'

/** Assumed context window when neither the catalog nor the provider says. */
export const DEFAULT_CONTEXT_WINDOW: f64 = 32000

export class ModelInfo {
  contextWindow: f64 = 0
  maxOutputTokens: f64 = 0
  supportsToolUse: bool = true
  /** Whether the catalog said anything about fast mode (unknown → allowed, the server decides). */
  fastKnown: bool = false
  fast: bool = false
  efforts: Array<string> = []
  constructor(public id: string) {}
}

export class ProviderInfo {
  models: Array<ModelInfo> = []
  /** True once the host answered a catalog request (models may still be empty). */
  loaded: bool = false
  requested: bool = false
  error: string = ''
  /** Its API root (empty for the demo), for /provider. */
  baseUrl: string = ''
  /**
   * `account` (sign-in or AI Gateway key), `key` (its own key, /key <name>), `optional` (a
   * person's server: none until it answers 401, then /key <name>) or `not_needed`.
   */
  key: string = 'not_needed'
  /** Added with /provider add (or a link): /provider remove may drop it. */
  added: bool = false
  /** Its API refuses browser pages and this page has no proxy (deepseek): picking it cannot work. */
  needsProxy: bool = false
  /** Its last catalog answer was 401/403: it wants a key. */
  unauthorized: bool = false
  /** For `key`: whether a key is saved (the host says, input 15 `keys`). */
  saved: bool = false
  /** /provider switched to it: say what its catalog answers (a model picked, or why none). */
  announce: bool = false
  /** Chosen in the provider picker: open its model picker when its catalog arrives. */
  pickModel: bool = false
  constructor(public name: string, public label: string, public defaultModel: string) {}

  find(id: string): ModelInfo | null {
    for (let i = 0; i < this.models.length; i++) if (unchecked(this.models[i]).id == id) return unchecked(this.models[i])
    return null
  }
}

export class Providers {
  list: Array<ProviderInfo> = []
  /** The account provider's credential (signed_in | key | env | none), for /provider. */
  accountCredential: string = ''
  active: ProviderInfo = new ProviderInfo('demo', 'demo', 'demo')

  /** Reads boot's `providers: [{name, label, model}]`; the active one is named by `provider`. */
  load(v: JsonValue, activeName: string, fallbackModel: string): void {
    const arr = v.get('providers')
    if (arr != null && arr.kind == J_ARR) {
      for (let i = 0; i < arr.items.length; i++) {
        const p = arr.items[i]
        if (p.kind != J_OBJ) continue
        const name = p.getString('name', '')
        if (name.length > 0) this.list.push(describe(new ProviderInfo(name, p.getString('label', name), p.getString('model', '')), p))
      }
    }
    const found = this.find(activeName)
    if (found != null) this.active = found
    else {
      this.active = new ProviderInfo(activeName, activeName, fallbackModel)
      this.list.unshift(this.active)
    }
  }

  find(name: string): ProviderInfo | null {
    for (let i = 0; i < this.list.length; i++) if (this.list[i].name == name) return this.list[i]
    return null
  }

  /** Input 20: providers added (or changed) after boot, `{providers: [{name, label, model, baseUrl, key}]}`. */
  upsert(v: JsonValue): Array<ProviderInfo> {
    const added = new Array<ProviderInfo>()
    const arr = v.get('providers')
    if (arr == null || arr.kind != J_ARR) return added
    for (let i = 0; i < arr.items.length; i++) {
      const item = arr.items[i]
      if (item.kind != J_OBJ) continue
      const name = item.getString('name', '')
      if (name.length == 0) continue
      let p = this.find(name)
      if (p == null) {
        p = new ProviderInfo(name, item.getString('label', name), item.getString('model', ''))
        this.list.push(p)
      } else {
        p.label = item.getString('label', name)
        p.defaultModel = item.getString('model', '')
        p.requested = false
        p.loaded = false
      }
      added.push(describe(p, item))
    }
    return added
  }

  /** Input 15 `keys`: the providers whose key is saved now. */
  setSaved(v: JsonValue): void {
    for (let i = 0; i < this.list.length; i++) this.list[i].saved = false
    const arr = v.get('saved')
    if (arr == null || arr.kind != J_ARR) return
    for (let i = 0; i < arr.items.length; i++) {
      if (arr.items[i].kind != J_STR) continue
      const p = this.find(arr.items[i].str)
      if (p != null) p.saved = true
    }
  }

  /** Drops a provider (a caller removing the active one switches to another first or after). */
  remove(name: string): void {
    const kept = new Array<ProviderInfo>()
    for (let i = 0; i < this.list.length; i++) if (this.list[i].name != name) kept.push(this.list[i])
    this.list = kept
  }

  names(): string {
    let s = ''
    for (let i = 0; i < this.list.length; i++) s += (i > 0 ? ', ' : '') + this.list[i].name
    return s
  }

  /** The host's answer to a catalog request: `{provider, models: [ModelInfo], error?}`. */
  setCatalog(v: JsonValue): ProviderInfo | null {
    const p = this.find(v.getString('provider', ''))
    if (p == null) return null
    p.loaded = true
    p.error = v.getString('error', '')
    p.unauthorized = v.getBool('unauthorized', false)
    p.models = []
    const arr = v.get('models')
    if (arr == null || arr.kind != J_ARR) return p
    for (let i = 0; i < arr.items.length; i++) {
      const m = arr.items[i]
      if (m.kind == J_STR) {
        p.models.push(new ModelInfo(m.str))
        continue
      }
      const id = m.getString('id', '')
      if (id.length == 0) continue
      const info = new ModelInfo(id)
      info.contextWindow = m.getNumber('contextWindow', 0)
      info.maxOutputTokens = m.getNumber('maxOutputTokens', 0)
      info.supportsToolUse = m.getBool('supportsToolUse', true)
      const fast = m.get('fast')
      if (fast != null) {
        info.fastKnown = true
        info.fast = m.getBool('fast', false)
      }
      const efforts = m.get('efforts')
      if (efforts != null && efforts.kind == J_ARR) {
        for (let j = 0; j < efforts.items.length; j++) if (efforts.items[j].kind == J_STR) info.efforts.push(efforts.items[j].str)
      }
      p.models.push(info)
    }
    return p
  }
}

function describe(p: ProviderInfo, v: JsonValue): ProviderInfo {
  p.baseUrl = v.getString('baseUrl', '')
  p.key = v.getString('key', 'not_needed')
  p.added = v.getBool('added', false)
  p.needsProxy = v.getBool('proxy', false)
  return p
}

/** The name people read: `anthropic/claude-sonnet-4.5` → `claude-sonnet-4.5`. */
export function shortModelName(id: string): string {
  const slash = id.lastIndexOf('/')
  return slash >= 0 && slash < id.length - 1 ? id.substring(slash + 1) : id
}

/** 200000 → `200k`, 1048576 → `1M`. */
export function formatWindow(tokens: f64): string {
  if (tokens < 1000) return (<i64>Math.round(tokens)).toString()
  if (tokens >= 1e6) return (<i64>Math.round(tokens / 1e5) / 10).toString() + 'M'
  return (<i64>Math.round(tokens / 1000)).toString() + 'k'
}
