/**
 * Bash worker side: a commit's exact bytes from GitHub's JSON, and GitHub's JSON from a local
 * commit's bytes. A clone whose commit id must equal GitHub's needs the raw object: the API
 * gives every field but the time zones (its dates are in UTC) and may drop the message's last
 * newline, so the few candidates are hashed until one gives GitHub's sha. A signed commit is
 * exact: `verification.payload` is the unsigned text and `signature` the gpgsig header.
 */

import { sha1Hex } from './sha1'

export type ApiPerson = { name: string; email: string; date: string }

/** GET /repos/O/R/git/commits/SHA, the fields used here. */
export type ApiCommit = {
  sha: string
  tree: { sha: string }
  parents: Array<{ sha: string }>
  author: ApiPerson
  committer: ApiPerson
  message: string
  verification?: { signature: string | null; payload: string | null } | null
}

/** POST /repos/O/R/git/commits's body. */
export type ApiNewCommit = {
  message: string
  tree: string
  parents: string[]
  author: ApiPerson
  committer: ApiPerson
  signature?: string
}

const encoder = new TextEncoder()

/** git's object id of `content` stored as `type`. */
export function objectId(type: string, content: Uint8Array): string {
  const header = encoder.encode(`${type} ${content.length}\0`)
  const whole = new Uint8Array(header.length + content.length)
  whole.set(header)
  whole.set(content, header.length)
  return sha1Hex(whole)
}

/** `+0130` for 90 minutes east of UTC. */
function zone(minutes: number): string {
  const abs = Math.abs(minutes)
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
}

/** Every offset in use on Earth in 15-minute steps, UTC first, then outward from it. */
const ALL_ZONES: string[] = (() => {
  const steps: number[] = [0]
  for (let m = 15; m <= 14 * 60; m += 15) {
    steps.push(m)
    if (m <= 12 * 60) steps.push(-m)
  }
  return steps.map(zone)
})()

/** The Unix time of an ISO date, and its zone when the date carries one (`+02:00`, not `Z`). */
function parseDate(date: string): { seconds: number; zone: string | null } {
  const seconds = Math.floor(Date.parse(date) / 1000)
  const offset = /([+-])(\d\d):?(\d\d)$/.exec(date)
  return { seconds, zone: offset ? `${offset[1]}${offset[2]}${offset[3]}` : null }
}

function signatureHeader(signature: string): string {
  return `gpgsig ${signature.replace(/\n$/, '').split('\n').join('\n ')}\n`
}

/** The commit's raw text, checked against its sha; null when no candidate hashes to it. */
export async function rebuildCommit(commit: ApiCommit): Promise<Uint8Array | null> {
  const check = (text: string) => {
    const bytes = encoder.encode(text)
    return objectId('commit', bytes) === commit.sha ? bytes : null
  }
  const { payload, signature } = commit.verification ?? { payload: null, signature: null }
  if (payload && signature) {
    const end = payload.indexOf('\n\n') + 1
    if (end === 0) return null
    return check(payload.slice(0, end) + signatureHeader(signature) + payload.slice(end))
  }
  const author = parseDate(commit.author.date)
  const committer = parseDate(commit.committer.date)
  const head = `tree ${commit.tree.sha}\n${commit.parents.map((p) => `parent ${p.sha}\n`).join('')}`
  const messages = commit.message.endsWith('\n') ? [commit.message] : [`${commit.message}\n`, commit.message]
  const text = (authorZone: string, committerZone: string, message: string) =>
    `${head}author ${commit.author.name} <${commit.author.email}> ${author.seconds} ${authorZone}\n` +
    `committer ${commit.committer.name} <${commit.committer.email}> ${committer.seconds} ${committerZone}\n\n${message}`
  const authorZones = author.zone ? [author.zone] : ALL_ZONES
  const committerZones = committer.zone ? [committer.zone] : ALL_ZONES
  // Most commits have one zone for both people: try those pairs before all the others.
  for (const message of messages) {
    for (const z of authorZones) {
      if (!committerZones.includes(z)) continue
      const found = check(text(z, z, message))
      if (found) return found
    }
  }
  for (const message of messages)
    for (const a of authorZones)
      for (const c of committerZones) {
        if (a === c) continue
        const found = check(text(a, c, message))
        if (found) return found
      }
  return null
}

type RawPerson = { name: string; email: string; seconds: number; zone: string }

/** A raw commit's fields, or null when it has a header GitHub's API cannot be given. */
export function parseCommitText(text: string): { tree: string; parents: string[]; author: RawPerson; committer: RawPerson; gpgsig: string | null; message: string } | null {
  const end = text.indexOf('\n\n')
  const headerLines = (end === -1 ? text : text.slice(0, end)).split('\n')
  const message = end === -1 ? '' : text.slice(end + 2)
  let tree = ''
  const parents: string[] = []
  let author: RawPerson | null = null
  let committer: RawPerson | null = null
  const sig: string[] = []
  let inSig = false
  for (const line of headerLines) {
    if (inSig && line.startsWith(' ')) {
      sig.push(line.slice(1))
      continue
    }
    inSig = false
    const space = line.indexOf(' ')
    const key = line.slice(0, space)
    const rest = line.slice(space + 1)
    if (key === 'tree') tree = rest
    else if (key === 'parent') parents.push(rest)
    else if (key === 'author' || key === 'committer') {
      const m = /^(.*) <(.*)> (\d+) ([+-]\d{4})$/.exec(rest)
      if (!m) return null
      const person = { name: m[1]!, email: m[2]!, seconds: Number(m[3]), zone: m[4]! }
      if (key === 'author') author = person
      else committer = person
    } else if (key === 'gpgsig') {
      inSig = true
      sig.push(rest)
    } else return null
  }
  if (!tree || !author || !committer) return null
  return { tree, parents, author, committer, gpgsig: sig.length ? `${sig.join('\n')}\n` : null, message }
}

/** `2023-11-14T23:13:20+01:00`: the local time and zone, which GitHub keeps as given. */
export function isoDate(seconds: number, zone: string): string {
  const sign = zone.startsWith('-') ? -1 : 1
  const minutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)))
  const local = new Date((seconds + minutes * 60) * 1000).toISOString().slice(0, 19)
  return `${local}${zone.slice(0, 3)}:${zone.slice(3, 5)}`
}

/** The body that makes GitHub write this commit, or null for a commit it cannot be given. */
export function newCommitBody(text: string): ApiNewCommit | null {
  const parsed = parseCommitText(text)
  if (!parsed) return null
  const person = (p: RawPerson): ApiPerson => ({ name: p.name, email: p.email, date: isoDate(p.seconds, p.zone) })
  return {
    message: parsed.message,
    tree: parsed.tree,
    parents: parsed.parents,
    author: person(parsed.author),
    committer: person(parsed.committer),
    ...(parsed.gpgsig ? { signature: parsed.gpgsig } : {}),
  }
}
