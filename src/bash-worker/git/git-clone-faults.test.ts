import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryFs } from 'just-bash/browser'
import { startCorsProxy, type CorsProxy } from '../../../mock-servers/cors-proxy.mjs'
import { fxGit } from '../../../test/support/git-harness'
import { startGitRemoteFixture, type GitRemoteFixture } from '../../../test/support/git-remote-fixture'
import { cloneRepository, MAX_CLONE_BYTES, MAX_CLONE_FILES } from './remote-clone'

let remote: GitRemoteFixture
let proxy: CorsProxy | null = null
beforeEach(async () => {
  remote = await startGitRemoteFixture()
})
afterEach(async () => {
  await proxy?.close()
  proxy = null
  await remote.close()
})

/** A repository whose pack is ~300 KB (random bytes do not compress). */
const BIG_PACK = `head -c 300000 /dev/urandom > blob.bin && echo hi > a.txt && git add . && git commit -qm one`

describe('git clone when the network or the server fails', () => {
  it('leaves no directory behind when the connection is cut mid-pack', async () => {
    const url = remote.repo('big', BIG_PACK)
    remote.server.setFault({ cutUploadPackAfter: 20_000 })
    const fx = await fxGit()
    const cut = await fx.run(`git clone ${url}`)
    expect(cut).toEqual({
      stdout: '',
      stderr: "Cloning into 'big'...\nfatal: the connection to " + new URL(url).host + ' was cut before the answer was complete\n',
      exitCode: 128,
    })
    expect((await fx.run('ls -A')).stdout).toBe('')
    remote.server.setFault({})
    expect((await fx.run(`git clone -q ${url}`)).exitCode).toBe(0)
    expect((await fx.run('ls -A')).stdout).toBe('big\n')
  })

  it('names 401, 403 and 404 in one line each, and makes nothing', async () => {
    const url = remote.repo('proj', 'echo a > a && git add . && git commit -qm one')
    const fx = await fxGit()
    const lines: string[] = []
    for (const status of [401, 403, 404] as const) {
      remote.server.setFault({ status })
      const answer = await fx.run(`git clone -q ${url}`)
      expect(answer.exitCode).toBe(128)
      lines.push(answer.stderr)
    }
    expect(lines).toEqual([
      `fatal: Authentication failed for '${url}' (HTTP 401: the server wants a login, and fxterm's git has no credentials for it)\n`,
      `fatal: unable to access '${url}': The requested URL returned error: 403 (forbidden: no permission for this repository)\n`,
      `fatal: repository '${url}' not found (HTTP 404)\n`,
    ])
    expect((await fx.run('ls -A')).stdout).toBe('')
    // No credentials exist yet (credentialsFor answers none), so a 401 is never retried with one.
    expect(remote.server.requests.map((r) => r.authorization)).toEqual(remote.server.requests.map(() => null))
  })

  it('says it could not connect when nothing listens', async () => {
    const url = remote.repo('proj', 'echo a > a && git add . && git commit -qm one')
    await remote.server.close()
    const fx = await fxGit()
    const answer = await fx.run(`git clone -q ${url}`)
    expect(answer.exitCode).toBe(128)
    expect(answer.stderr).toMatch(new RegExp(`^fatal: unable to access '${url}': could not connect .*http.corsProxy <url>\\)\\n$`))
  })

  it('refuses a repository over the file or byte cap, with the numbers, and makes nothing', async () => {
    expect([MAX_CLONE_FILES, MAX_CLONE_BYTES]).toEqual([20_000, 200 * 1024 * 1024])
    const url = remote.repo('many', 'for i in $(seq 30); do echo $i > f$i; done && git add . && git commit -qm many')
    const fs = new InMemoryFs()
    await fs.mkdir('/w', { recursive: true })
    const files = cloneRepository(fs, { url, target: '/w/many', proxy: null, limits: { maxFiles: 25, maxBytes: 1 << 20 } })
    await expect(files).rejects.toThrow("the repository is too big for fxterm's git: more than 25 files (the limits are 25 files and 1 MB)")
    const bigUrl = remote.repo('big', BIG_PACK)
    const bytes = cloneRepository(fs, { url: bigUrl, target: '/w/big', proxy: null, limits: { maxFiles: 25, maxBytes: 100_000 } })
    await expect(bytes).rejects.toThrow(/^the repository is too big for fxterm's git: more than 98 KB to download \(the limits are 25 files and 98 KB\)$/)
    expect(await fs.readdir('/w')).toEqual([])
  })
})

describe('git clone through a CORS proxy', () => {
  it('goes through http.corsProxy and says once per session that the proxy sees everything', async () => {
    const url = remote.repo('proj', 'echo a > a && git add . && git commit -qm one')
    proxy = await startCorsProxy()
    const fx = await fxGit()
    await fx.run(`printf '[http]\\n\\tcorsProxy = ${proxy.url}\\n' > ~/.gitconfig`)
    const first = await fx.run(`git clone ${url} one`)
    expect(first).toEqual({
      stdout: '',
      stderr:
        `note: git goes through the CORS proxy ${proxy.url} (http.corsProxy); the proxy sees everything that passes through it, credentials included\n` +
        "Cloning into 'one'...\n",
      exitCode: 0,
    })
    expect(await fx.run(`git clone ${url} two`)).toEqual({ stdout: '', stderr: "Cloning into 'two'...\n", exitCode: 0 })
    const path = new URL(url).host + new URL(url).pathname
    expect(proxy.passed.map((p) => p.url)).toContain(`http://${path}/info/refs?service=git-upload-pack`)
    expect(proxy.passed.map((p) => p.url)).toContain(`http://${path}/git-upload-pack`)
    expect((await fx.run('cat one/a')).stdout).toBe('a\n')
    // The proxy stays the person's setting: nothing of it is written into the clone's config.
    expect((await fx.run('cat one/.git/config')).stdout).not.toMatch(/corsProxy/i)
    const direct = proxy.passed.length
    expect((await fx.run(`git -c http.corsProxy= clone -q ${url} three`)).exitCode).toBe(0)
    expect(proxy.passed.length).toBe(direct)
  })
})
