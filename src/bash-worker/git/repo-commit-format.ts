/**
 * Bash worker side: a commit's header as `git log` and `git show` print it by default
 * (commit, Merge, Author, Date, the message indented by four), and git's default date format.
 */

import git from 'isomorphic-git'
import type { GitContext } from './git-context'
import { repoArgs } from './repo-revisions'

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** "Tue Nov 14 22:13:20 2023 +0000": the time in its own zone, as git's default date. */
export function gitDate(timestamp: number, timezoneOffset: number): string {
  // isomorphic-git keeps the offset as JavaScript does: minutes west of UTC.
  const east = -timezoneOffset
  const d = new Date((timestamp + east * 60) * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const zone = `${east < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(east) / 60))}${pad(Math.abs(east) % 60)}`
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()} ${zone}`
}

/** A message's lines indented by four, empty lines included, as git's medium format. */
export function indentMessage(message: string): string {
  return message
    .replace(/\n+$/, '')
    .split('\n')
    .map((line) => `    ${line}\n`)
    .join('')
}

/** The first line of a commit's message. */
export function subjectOf(message: string): string {
  return message.split('\n')[0] ?? ''
}

/** git log's default header for one commit, ending with the message and no blank line after. */
export async function commitHeader(ctx: GitContext, oid: string, color: boolean): Promise<string> {
  const { commit } = await git.readCommit({ ...repoArgs(ctx), oid })
  const line = `commit ${oid}`
  let out = color ? `\x1b[33m${line}\x1b[m\n` : `${line}\n`
  if (commit.parent.length > 1) out += `Merge: ${commit.parent.map((p) => p.slice(0, 7)).join(' ')}\n`
  out += `Author: ${commit.author.name} <${commit.author.email}>\n`
  out += `Date:   ${gitDate(commit.author.timestamp, commit.author.timezoneOffset)}\n\n`
  return out + indentMessage(commit.message)
}

/** "abc1234 subject": the short form reset and merge print. */
export async function oneLine(ctx: GitContext, oid: string): Promise<string> {
  const { commit } = await git.readCommit({ ...repoArgs(ctx), oid })
  return `${oid.slice(0, 7)} ${subjectOf(commit.message)}`
}
