/**
 * Bash worker side: git's config files read and written as text, for `git config` and for what
 * other subcommands look up (user.name, init.defaultBranch). isomorphic-git reads only a
 * repository's own config; `--global` ($HOME/.gitconfig) and `--list` need a reader of our own,
 * and one reader for every file keeps the answers consistent.
 */

import type { GitContext } from './git-context'
import { joinPath } from './git-paths'

/** One `name = value` line: its full key (section[.subsection].name) and value. */
export type ConfigEntry = { key: string; value: string }

/** Lowercases the section and the name of a key; the subsection keeps its case, as git has it. */
export function canonicalKey(key: string): string {
  const first = key.indexOf('.')
  const last = key.lastIndexOf('.')
  if (first === -1) return key.toLowerCase()
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`
}

function unquote(raw: string): string {
  let out = ''
  let quoted = false
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!
    if (c === '"') quoted = !quoted
    else if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]!
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n
    } else if (!quoted && (c === '#' || c === ';')) break
    else out += c
  }
  return quoted ? out : out.trimEnd()
}

/** The entries of a config file's text, in file order. */
export function parseConfig(text: string): ConfigEntry[] {
  const entries: ConfigEntry[] = []
  let section = ''
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = /^\[\s*([^\s\]"]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line)
    if (header) {
      const sub = header[2]?.replace(/\\(.)/g, '$1')
      section = sub === undefined ? header[1]!.toLowerCase() : `${header[1]!.toLowerCase()}.${sub}`
      continue
    }
    const eq = line.indexOf('=')
    const name = (eq === -1 ? line : line.slice(0, eq)).trim().toLowerCase()
    // A name without `=` is a boolean true, as git reads it.
    entries.push({ key: `${section}.${name}`, value: eq === -1 ? 'true' : unquote(line.slice(eq + 1).trim()) })
  }
  return entries
}

function quoteValue(value: string): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')
  return /^\s|\s$|[#;]/.test(value) ? `"${escaped}"` : escaped
}

function splitKey(key: string): { section: string; sub: string | null; name: string } {
  const first = key.indexOf('.')
  const last = key.lastIndexOf('.')
  return { section: key.slice(0, first), sub: first === last ? null : key.slice(first + 1, last), name: key.slice(last + 1) }
}

function headerOf(section: string, sub: string | null): string {
  return sub === null ? `[${section}]` : `[${section} "${sub.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`
}

/**
 * `text` with `key` set to `value` (replacing its last occurrence, as `git config key value`
 * does) or, with `value` null, with every line of `key` removed. `found` says whether the key
 * was there.
 */
export function editConfig(text: string, key: string, value: string | null): { text: string; found: boolean } {
  const { section, sub, name: lowerName } = splitKey(canonicalKey(key))
  // A new line keeps the name's case as typed (git writes `corsProxy`, matches it as `corsproxy`).
  const name = key.slice(key.lastIndexOf('.') + 1)
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n')
  let current = ''
  let lastSectionLine = -1
  const hits: number[] = []
  const wanted = sub === null ? section : `${section}.${sub}`
  lines.forEach((raw, index) => {
    const entries = parseConfig(raw)
    const header = /^\s*\[/.test(raw)
    if (header) {
      current = parseConfig(`${raw}\nx`)[0]?.key.replace(/\.x$/, '') ?? ''
      if (current === wanted) lastSectionLine = index
      return
    }
    if (current !== wanted) return
    lastSectionLine = index
    const entry = entries[0]
    if (entry && entry.key.slice(1) === lowerName) hits.push(index)
  })
  const line = value === null ? null : `\t${name} = ${quoteValue(value)}`
  if (value === null) {
    const kept = lines.filter((_, index) => !hits.includes(index))
    // A section left without entries goes too, as git removes it.
    const out = kept.filter((line, index) => !(/^\s*\[/.test(line) && (index + 1 === kept.length || /^\s*\[/.test(kept[index + 1]!))) || hits.length === 0)
    return { text: out.length ? `${out.join('\n')}\n` : '', found: hits.length > 0 }
  }
  if (hits.length > 0) lines[hits.at(-1)!] = line!
  else if (lastSectionLine >= 0) lines.splice(lastSectionLine + 1, 0, line!)
  else lines.push(headerOf(section, sub), line!)
  return { text: `${lines.join('\n')}\n`, found: hits.length > 0 }
}

/** Where a scope's config lives: the repository's `.git/config` or $HOME/.gitconfig. */
export function configPath(ctx: GitContext, scope: 'local' | 'global'): string | null {
  if (scope === 'global') return joinPath(ctx.env.HOME ?? '/home/user', '.gitconfig')
  return ctx.gitdir === null ? null : joinPath(ctx.gitdir, 'config')
}

export async function readConfigText(ctx: GitContext, path: string | null): Promise<string> {
  if (path === null) return ''
  return ctx.fs.readFile(path).catch(() => '')
}

/** Every entry git would see, in its order: global, then local, then `-c` overrides. */
export async function allConfig(ctx: GitContext): Promise<ConfigEntry[]> {
  const global = parseConfig(await readConfigText(ctx, configPath(ctx, 'global')))
  const local = parseConfig(await readConfigText(ctx, configPath(ctx, 'local')))
  const overrides = Object.entries(ctx.configOverrides).map(([key, value]) => ({ key: canonicalKey(key), value }))
  return [...global, ...local, ...overrides]
}

/** The value git uses for `key` (the last one set), or undefined. */
export async function configValue(ctx: GitContext, key: string): Promise<string | undefined> {
  const wanted = canonicalKey(key)
  return (await allConfig(ctx)).filter((entry) => entry.key === wanted).at(-1)?.value
}
