import { zipSync } from 'fflate'
import { afterEach, describe, expect, it } from 'vitest'
import { disposeOpened, execInput as input, openWorkspace as open } from '../../../test/support/workspaces'

afterEach(disposeOpened)

const URL_JSON = 'https://example.test/seed.json'
const URL_ZIP = 'https://example.test/seed.zip'

/** A fetch that answers `body` for every URL, and counts its calls. */
function fakeFetch(body: BodyInit | (() => never), init: ResponseInit = {}) {
  const calls: string[] = []
  const fetch = async (url: string | URL | Request) => {
    calls.push(String(url))
    if (typeof body === 'function') body()
    return new Response(body as BodyInit, init)
  }
  return { fetch: fetch as typeof globalThis.fetch, calls }
}

describe('seeding from filesUrl', () => {
  it('fetches a JSON manifest on first use, not at construction, and lets inline files win', async () => {
    const manifest = JSON.stringify({ files: { 'a.txt': 'from url\n', 'src/b.txt': 'B\n' } })
    const { fetch, calls } = fakeFetch(manifest, { headers: { 'content-type': 'application/json' } })
    const { workspace, created } = open({ files: { 'a.txt': 'inline\n' }, filesUrl: URL_JSON, fetch })
    expect(calls).toEqual([])
    expect(await workspace.readFile({ path: 'src/b.txt' })).toBe('B\n')
    expect(created.length).toBe(0) // answered from the seeded snapshot
    expect(await workspace.exec(input('cat a.txt src/b.txt'))).toEqual({
      stdout: 'inline\nB\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect(calls).toEqual([URL_JSON])
  })

  it('unzips a zip recognized by its magic bytes, keeping binary files as bytes and empty directories', async () => {
    const zip = zipSync({
      'docs/readme.md': new TextEncoder().encode('# seeded\n'),
      'img.bin': new Uint8Array([0x89, 0x50, 0x00, 0xff]),
      'empty/': new Uint8Array(0),
    })
    const { fetch } = fakeFetch(zip, { headers: { 'content-type': 'application/octet-stream' } })
    const { workspace } = open({ filesUrl: URL_ZIP, fetch })
    expect(await workspace.exec(input('cat docs/readme.md; base64 img.bin; find . -type d | sort'))).toEqual({
      stdout: '# seeded\niVAA/w==\n.\n./docs\n./empty\n',
      stderr: '',
      exitCode: 0,
      cwd: '/workspace',
    })
    expect(await workspace.listFiles()).toEqual(['docs/readme.md', 'img.bin'])
  })

  it('says on the first command only that the download failed, and works without it', async () => {
    const { fetch } = fakeFetch('gone', { status: 404, statusText: 'Not Found' })
    const { workspace } = open({ files: { 'kept.txt': 'K\n' }, filesUrl: URL_JSON, fetch })
    expect([await workspace.exec(input('cat kept.txt')), await workspace.exec(input('echo ok'))]).toEqual([
      {
        stdout: 'K\n',
        stderr: `fxterm: could not load the workspace files from ${URL_JSON} (HTTP 404 Not Found); the workspace started without them\n`,
        exitCode: 0,
        cwd: '/workspace',
      },
      { stdout: 'ok\n', stderr: '', exitCode: 0, cwd: '/workspace' },
    ])
  })

  it('explains a network error, a body that is neither zip nor manifest, and a zip entry leaving the root', async () => {
    const bodies: Array<[BodyInit | (() => never), ResponseInit]> = [
      [() => { throw new TypeError('Failed to fetch') }, {}],
      ['<html>', { headers: { 'content-type': 'text/html' } }],
      [JSON.stringify({ files: ['a'] }), {}],
      [zipSync({ '../evil.sh': new Uint8Array(1) }), {}],
    ]
    const reasons: string[] = []
    for (const [body, init] of bodies) {
      const { workspace } = open({ filesUrl: URL_ZIP, fetch: fakeFetch(body, init).fetch })
      reasons.push((await workspace.exec(input('true'))).stderr)
    }
    const note = (reason: string) =>
      `fxterm: could not load the workspace files from ${URL_ZIP} (${reason}); the workspace started without them\n`
    expect(reasons).toEqual([
      note('Failed to fetch'),
      note('it is neither a zip nor a JSON manifest'),
      note('the JSON manifest has no "files" object'),
      note(`the zip entry "../evil.sh" is refused: the path leaves the workspace root through '..'`),
    ])
  })
})
