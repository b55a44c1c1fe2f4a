import { describe, expect, it } from 'vitest'
import { isoDate, newCommitBody, objectId, rebuildCommit, type ApiCommit } from './github-commit-text'

const encoder = new TextEncoder()
const tree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

async function apiOf(text: string, dates: [string, string], message: string): Promise<ApiCommit> {
  return {
    sha: objectId('commit', encoder.encode(text)),
    tree: { sha: tree },
    parents: [],
    author: { name: 'Ada', email: 'ada@example.com', date: dates[0] },
    committer: { name: 'Bob', email: 'bob@example.com', date: dates[1] },
    message,
    verification: { signature: null, payload: null },
  }
}

describe("a commit's exact text from GitHub's JSON", () => {
  it('finds different zones for author and committer from UTC dates', async () => {
    const text = `tree ${tree}\nauthor Ada <ada@example.com> 1700000000 +0545\ncommitter Bob <bob@example.com> 1700000100 -0930\n\nhello\n`
    const api = await apiOf(text, ['2023-11-14T22:13:20Z', '2023-11-14T22:15:00Z'], 'hello')
    expect(new TextDecoder().decode((await rebuildCommit(api))!)).toBe(text)
  })

  it('keeps a message without a final newline, and uses a zone the date carries', async () => {
    const text = `tree ${tree}\nauthor Ada <ada@example.com> 1700000000 +0200\ncommitter Bob <bob@example.com> 1700000000 +0200\n\nno newline`
    const api = await apiOf(text, ['2023-11-15T00:13:20+02:00', '2023-11-15T00:13:20+02:00'], 'no newline')
    expect(new TextDecoder().decode((await rebuildCommit(api))!)).toBe(text)
  })

  it('answers null when nothing hashes to the sha', async () => {
    const api = await apiOf('x', ['2023-11-14T22:13:20Z', '2023-11-14T22:13:20Z'], 'm')
    expect(await rebuildCommit({ ...api, parents: [] })).toBeNull()
  })

  it("gives GitHub a local commit's dates in their own zone", () => {
    expect(isoDate(1700000000, '+0545')).toBe('2023-11-15T03:58:20+05:45')
    expect(isoDate(1700000000, '-0930')).toBe('2023-11-14T12:43:20-09:30')
    const body = newCommitBody(`tree ${tree}\nparent ${tree}\nauthor A <a@x> 1700000000 +0100\ncommitter B <b@x> 1700000001 +0000\n\nsubject\n\nbody\n`)
    expect(body).toEqual({
      message: 'subject\n\nbody\n',
      tree,
      parents: [tree],
      author: { name: 'A', email: 'a@x', date: '2023-11-14T23:13:20+01:00' },
      committer: { name: 'B', email: 'b@x', date: '2023-11-14T22:13:21+00:00' },
    })
    expect(newCommitBody(`tree ${tree}\nauthor A <a@x> 1 +0000\ncommitter B <b@x> 1 +0000\nencoding latin1\n\nm\n`)).toBeNull()
  })
})
