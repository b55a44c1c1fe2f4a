import { afterEach, describe, expect, it } from 'vitest'
import git from 'isomorphic-git'
import type { IFileSystem } from 'just-bash/browser'
import { gitFs } from '../git-fs'
import { planGithubPush } from './github-push-plan'
import { pushToGithub } from './github-push'
import { clonedGithubFixture, type GithubFixture } from '../../../../test/support/github-fixture'

const disposers: Array<() => void> = []
afterEach(() => disposers.splice(0).forEach((d) => d()))

const repo = { owner: 'octo', repo: 'demo' }
const dir = '/w'

const cloned = (): Promise<GithubFixture> => clonedGithubFixture(dir, disposers)

/** A local commit changing one file, by Grace in UTC+02:00 at `seconds`. */
async function commit(fs: IFileSystem, path: string, text: string, seconds: number, message: string): Promise<string> {
  await fs.mkdir(`${dir}/${path}`.slice(0, `${dir}/${path}`.lastIndexOf('/')), { recursive: true })
  await fs.writeFile(`${dir}/${path}`, text)
  const fsp = gitFs(fs)
  await git.add({ fs: fsp, dir, filepath: path })
  const author = { name: 'Grace', email: 'grace@example.com', timestamp: seconds, timezoneOffset: -120 }
  return git.commit({ fs: fsp, dir, message, author, committer: author })
}

describe('a push through GitHub’s API', () => {
  it('sends two local commits so the branch on GitHub has the local id and native git fsck is clean', async () => {
    const { native, mock, fs } = await cloned()
    const before = native.run('git rev-parse main').stdout.trim()
    await commit(fs, 'src/deep/new.txt', 'new file\n', 1700001000, 'add a file\n\nwith a body\n')
    const local = await commit(fs, 'README.md', 'changed\n', 1700002000, 'change the readme')
    const plan = await planGithubPush({ fs, dir, repo, fetch: mock.server })
    expect(plan.commits.map((c) => c.subject)).toEqual(['add a file', 'change the readme'])
    expect(mock.requests.filter((r) => r.method !== 'GET')).toEqual([])

    const result = await pushToGithub({ fs, dir, repo, fetch: mock.server }, plan)
    expect(result).toMatchObject({ exitCode: 0, mismatched: [] })
    expect(result.output).toBe(`To https://github.com/octo/demo\n   ${before.slice(0, 7)}..${local.slice(0, 7)}  main -> main\n`)
    expect(native.run('git rev-parse main').stdout.trim()).toBe(local)
    expect(native.run('git fsck --strict 2>&1')).toMatchObject({ exitCode: 0, stdout: '' })
    expect(native.run('git show main:src/deep/new.txt').stdout).toBe('new file\n')
    // Only what GitHub lacked was sent: two blobs, and the trees on their paths.
    const posts = mock.requests.filter((r) => r.method === 'POST').map((r) => new URL(r.url).pathname.split('/').pop())
    expect(posts.sort()).toEqual(['blobs', 'blobs', 'commits', 'commits', 'trees', 'trees', 'trees', 'trees'])
    expect(await git.resolveRef({ fs: gitFs(fs), dir, ref: 'refs/remotes/origin/main' })).toBe(local)
    expect((await pushToGithub({ fs, dir, repo, fetch: mock.server })).output).toBe('Everything up-to-date\n')
  })

  it('creates a new branch, and keeps a signed commit’s id', async () => {
    const { native, mock, fs } = await cloned()
    const fsp = gitFs(fs)
    await git.branch({ fs: fsp, dir, ref: 'topic', checkout: true })
    const parent = await commit(fs, 'a.txt', 'a\n', 1700003000, 'on topic')
    const { commit: c } = await git.readCommit({ fs: fsp, dir, oid: parent })
    const text =
      `tree ${c.tree}\nparent ${parent}\nauthor Grace <grace@example.com> 1700004000 -0330\ncommitter Grace <grace@example.com> 1700004000 -0330\n` +
      'gpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEEfake\n -----END PGP SIGNATURE-----\n\nsigned locally\n'
    const signed = await git.writeObject({ fs: fsp, dir, type: 'commit', object: new TextEncoder().encode(text), format: 'content' })
    await git.writeRef({ fs: fsp, dir, ref: 'refs/heads/topic', value: signed, force: true })
    const result = await pushToGithub({ fs, dir, repo, fetch: mock.server })
    expect(result.output).toBe('To https://github.com/octo/demo\n * [new branch]      topic -> topic\n')
    expect(native.run('git rev-parse topic').stdout.trim()).toBe(signed)
    expect(native.run('git cat-file commit topic').stdout).toBe(text)
  })

  it('refuses as git does when GitHub has commits the local branch lacks, or does not descend from', async () => {
    const { native, mock, fs } = await cloned()
    native.run("echo remote > r.txt && git add r.txt && git commit -q -m 'on github'")
    const onGithub = native.run('git rev-parse main').stdout.trim()
    await commit(fs, 'l.txt', 'l\n', 1700005000, 'local')
    const fetchFirst = await pushToGithub({ fs, dir, repo, fetch: mock.server })
    expect(fetchFirst).toMatchObject({
      exitCode: 1,
      output: "To https://github.com/octo/demo\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'https://github.com/octo/demo'\n",
    })
    expect(native.run('git rev-parse main').stdout.trim()).toBe(onGithub)

    native.run(`git reset -q --hard HEAD~1`)
    const a = await commit(fs, 'l.txt', 'l2\n', 1700006000, 'local two')
    expect((await pushToGithub({ fs, dir, repo, fetch: mock.server })).exitCode).toBe(0)
    await git.writeRef({ fs: gitFs(fs), dir, ref: 'refs/heads/main', value: (await git.readCommit({ fs: gitFs(fs), dir, oid: a })).commit.parent[0]!, force: true })
    await commit(fs, 'x.txt', 'x\n', 1700007000, 'diverged')
    const nonFf = await pushToGithub({ fs, dir, repo, fetch: mock.server })
    expect(nonFf.output).toContain(' ! [rejected]        main -> main (non-fast-forward)\n')
    expect(native.run('git rev-parse main').stdout.trim()).toBe(a)
  })
})

describe('a push GitHub stores differently', () => {
  it('says so, and origin/main names GitHub’s commits, which are brought in', async () => {
    const { native, mock, fs } = await cloned()
    mock.rewriteMessage = (m) => `${m}(edited)\n`
    const local = await commit(fs, 'a.txt', 'a\n', 1700001000, 'one\n')
    const result = await pushToGithub({ fs, dir, repo, fetch: mock.server })
    const github = native.run('git rev-parse main').stdout.trim()
    expect(github).not.toBe(local)
    expect(result.mismatched).toEqual([{ local, github }])
    expect(result.output).toContain(`warning: GitHub stored commit ${local.slice(0, 7)} as ${github.slice(0, 7)} (it changed the commit); origin/main names GitHub's\n`)
    const fsp = gitFs(fs)
    expect(await git.resolveRef({ fs: fsp, dir, ref: 'refs/remotes/origin/main' })).toBe(github)
    expect((await git.readCommit({ fs: fsp, dir, oid: github })).commit.message).toBe('one\n(edited)\n')
  })
})
