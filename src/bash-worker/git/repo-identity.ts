/**
 * Bash worker side: who makes a commit or a tag, and when. Native git's order: the
 * GIT_AUTHOR_* / GIT_COMMITTER_* environment, then user.name / user.email from config.
 *
 * Where native git would refuse to commit without an identity ("Please tell me who you are"),
 * fxterm's git falls back to "fxterm <fxterm@localhost>": the tab has no person's identity to
 * ask for, and a model stuck on that refusal would only invent one.
 */

import type { GitContext } from './git-context'
import { configValue } from './repo-config'

/** A person and a time, as isomorphic-git takes them (timezoneOffset: minutes, sign as JS's getTimezoneOffset). */
export type Person = { name: string; email: string; timestamp: number; timezoneOffset: number }

export const DEFAULT_NAME = 'fxterm'
export const DEFAULT_EMAIL = 'fxterm@localhost'

/**
 * Seconds and offset of a GIT_*_DATE value: `<seconds> <+hhmm>` (also with a leading `@`), or
 * anything Date.parse reads (ISO 8601, RFC 2822). Null when it reads none.
 */
export function parseGitDate(text: string): { timestamp: number; timezoneOffset: number } | null {
  const raw = /^@?(\d+)(?:\s+([+-])(\d\d):?(\d\d))?$/.exec(text.trim())
  if (raw) {
    const minutes = raw[2] ? (Number(raw[3]) * 60 + Number(raw[4])) * (raw[2] === '-' ? -1 : 1) : 0
    return { timestamp: Number(raw[1]), timezoneOffset: -minutes || 0 } // never -0: isomorphic-git writes it as -0000
  }
  const ms = Date.parse(text)
  if (Number.isNaN(ms)) return null
  const zone = /([+-])(\d\d):?(\d\d)$/.exec(text.trim())
  const minutes = zone ? (Number(zone[2]) * 60 + Number(zone[3])) * (zone[1] === '-' ? -1 : 1) : 0
  return { timestamp: Math.floor(ms / 1000), timezoneOffset: -minutes || 0 }
}

/** The author or the committer of a commit made now. */
export async function identity(ctx: GitContext, role: 'author' | 'committer'): Promise<Person> {
  const prefix = role === 'author' ? 'GIT_AUTHOR' : 'GIT_COMMITTER'
  const name = ctx.env[`${prefix}_NAME`] ?? (await configValue(ctx, 'user.name')) ?? DEFAULT_NAME
  const email = ctx.env[`${prefix}_EMAIL`] ?? (await configValue(ctx, 'user.email')) ?? DEFAULT_EMAIL
  const date = ctx.env[`${prefix}_DATE`]
  const when = (date !== undefined ? parseGitDate(date) : null) ?? { timestamp: ctx.nowSeconds(), timezoneOffset: 0 }
  return { name, email, ...when }
}

/** `+hhmm` for an isomorphic-git offset. */
export function zoneText(timezoneOffset: number): string {
  const minutes = -timezoneOffset
  const abs = Math.abs(minutes)
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** git's default date format, in the person's own zone: `Tue Nov 14 22:13:20 2023 +0000`. */
export function gitDate(person: { timestamp: number; timezoneOffset: number }): string {
  const d = new Date((person.timestamp - person.timezoneOffset * 60) * 1000)
  const two = (n: number) => String(n).padStart(2, '0')
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${time} ${d.getUTCFullYear()} ${zoneText(person.timezoneOffset)}`
}

/** `2023-11-14 22:13:20 +0000` (`%ai`), or with `strict` `2023-11-14T22:13:20+00:00` (`%aI`). */
export function isoDate(person: { timestamp: number; timezoneOffset: number }, strict = false): string {
  const text = new Date((person.timestamp - person.timezoneOffset * 60) * 1000).toISOString().slice(0, 19)
  const zone = zoneText(person.timezoneOffset)
  return strict ? `${text}${zone.slice(0, 3)}:${zone.slice(3)}` : `${text.replace('T', ' ')} ${zone}`
}

/** git's relative date (`%ar`): "5 minutes ago", "3 years, 1 month ago", by its own rounding. */
export function relativeDate(timestamp: number, now: number): string {
  let diff = now - timestamp
  if (diff < 0) return 'in the future'
  const ago = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`
  if (diff < 90) return ago(diff, 'second')
  diff = Math.floor((diff + 30) / 60)
  if (diff < 90) return ago(diff, 'minute')
  diff = Math.floor((diff + 30) / 60)
  if (diff < 36) return ago(diff, 'hour')
  diff = Math.floor((diff + 12) / 24)
  if (diff < 14) return ago(diff, 'day')
  if (diff < 70) return ago(Math.floor((diff + 3) / 7), 'week')
  if (diff < 365) return ago(Math.floor((diff + 15) / 30), 'month')
  if (diff < 1825) {
    const total = Math.floor((diff * 12 * 2 + 365) / (365 * 2))
    const years = Math.floor(total / 12)
    const months = total % 12
    const yearText = `${years} year${years === 1 ? '' : 's'}`
    return months ? `${yearText}, ${ago(months, 'month')}` : `${yearText} ago`
  }
  return ago(Math.floor((diff + 183) / 365), 'year')
}
