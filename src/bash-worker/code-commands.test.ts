import { describe, expect, it } from 'vitest'
import { createBashSession, type SessionExecInput } from './bash-session'
import type { SnapshotEntry } from '../shared/messages/bash-worker-api'
import type { CodeRunReply, RunRequest } from '../shared/sandbox/runtime-types'
import type { RemoteCodeRunner } from './code-commands'

const encode = (text: string) => new TextEncoder().encode(text)
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

const seed: Array<[string, SnapshotEntry]> = [
  ['/workspace/greet.js', { kind: 'file', content: 'console.log("hi")\n' }],
  ['/workspace/src/a.txt', { kind: 'file', content: 'a\n' }],
  ['/home/user/secret.txt', { kind: 'file', content: 'not for the sandbox\n' }],
  [
    '/workspace/package.json',
    { kind: 'file', content: JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'node --test', pretest: 'echo lint ok', build: 'echo built $1' } }) },
  ],
]

function input(command: string, overrides: Partial<SessionExecInput> = {}): SessionExecInput {
  return { command, cwd: '/workspace', timeoutMs: 30_000, outputLimitBytes: 65_536, ...overrides }
}

/** A runner standing in for the page's sandbox: answers what `answer` says and keeps the requests. */
function fakeRunner(answer: (request: RunRequest) => Partial<CodeRunReply> = () => ({})) {
  const requests: RunRequest[] = []
  const cancelled: number[] = []
  const runner: RemoteCodeRunner = {
    async run(_id, request) {
      requests.push(request)
      return { exitCode: 0, changes: {}, stdout: encode(''), stderr: encode(''), ...answer(request) }
    },
    cancel: (id) => cancelled.push(id),
  }
  return { runner, requests, cancelled }
}

describe('node and python3 in the shell', () => {
  it('hands the sandbox the files under the root only, the argv, the directory and the env', async () => {
    const { runner, requests } = fakeRunner(() => ({ stdout: encode('hi\n') }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    const result = await session.exec(input('export GREETING=hello; node greet.js --loud', { cwd: '/workspace/src' }))
    expect(result).toMatchObject({ stdout: 'hi\n', stderr: '', exitCode: 0 })
    const [request] = requests
    expect(request!.runtime).toBe('node')
    expect(request!.argv).toEqual(['greet.js', '--loud'])
    expect(request!.cwd).toBe('/workspace/src')
    expect(request!.root).toBe('/workspace')
    expect(request!.env.GREETING).toBe('hello')
    expect(Object.keys(request!.files).sort()).toEqual(['/workspace/greet.js', '/workspace/package.json', '/workspace/src/a.txt'])
    expect(decode(request!.files['/workspace/greet.js']!)).toBe('console.log("hi")\n')
  })

  it('keeps what the code wrote and removed, and passes stdin through', async () => {
    const { runner, requests } = fakeRunner(() => ({ changes: { '/workspace/out/result.txt': encode('42\n'), '/workspace/src/a.txt': null } }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    expect((await session.exec(input('echo 6 7 | python3 -c "import sys"'))).exitCode).toBe(0)
    expect(decode(requests[0]!.stdin!)).toBe('6 7\n')
    expect(requests[0]!.runtime).toBe('python')
    expect(await session.readFile('out/result.txt')).toBe('42\n')
    expect(await session.readFile('src/a.txt')).toBeNull()
    const delta = await session.changes()
    expect(delta.changed.map(([path]) => path)).toContain('/workspace/out/result.txt')
    expect(delta.removed).toContain('/workspace/src/a.txt')
  })

  it('refuses changes the sandbox reports outside the root, and says so', async () => {
    const { runner } = fakeRunner(() => ({
      changes: { '/home/user/secret.txt': encode('overwritten'), '/workspace/../etc/x': encode('x'), '/workspace/ok.txt': encode('ok') },
    }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    const result = await session.exec(input('node -e 1'))
    expect(result.stderr).toContain('the code\'s change to /home/user/secret.txt was not kept: it is outside /workspace')
    expect(result.stderr).toContain('/workspace/../etc/x was not kept')
    expect(await session.readFile('/home/user/secret.txt')).toBe('not for the sandbox\n')
    expect(await session.readFile('ok.txt')).toBe('ok')
  })

  it('leaves a link to a file outside the root out of what the code sees', async () => {
    const { runner, requests } = fakeRunner()
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    await session.exec(input('ln -s /home/user/secret.txt leak.txt && ln -s src/a.txt inside.txt'))
    await session.exec(input('node -e 1'))
    const files = requests[0]!.files
    expect(Object.keys(files).sort()).toEqual(['/workspace/greet.js', '/workspace/inside.txt', '/workspace/package.json', '/workspace/src/a.txt'])
    expect(decode(files['/workspace/inside.txt']!)).toBe('a\n')
  })

  it('refuses a change the code makes through a link leading outside, and writes through a link inside', async () => {
    const { runner } = fakeRunner(() => ({
      changes: {
        '/workspace/leak.txt': encode('overwritten'),
        '/workspace/out-dir/new.txt': encode('new'),
        '/workspace/inside.txt': encode('through the link\n'),
      },
    }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    await session.exec(input('ln -s /home/user/secret.txt leak.txt && ln -s /home/user out-dir && ln -s src/a.txt inside.txt'))
    const result = await session.exec(input('python3 -c 1'))
    expect(result.stderr).toBe(
      "fxterm: the code's change to /workspace/leak.txt was not kept: a symlink leads it outside /workspace, to /home/user/secret.txt\n" +
        "fxterm: the code's change to /workspace/out-dir/new.txt was not kept: a symlink leads it outside /workspace, to /home/user/new.txt\n",
    )
    expect(await session.readFile('/home/user/secret.txt')).toBe('not for the sandbox\n')
    expect(await session.readFile('/home/user/new.txt')).toBeNull()
    expect(await session.readFile('src/a.txt')).toBe('through the link\n')
    expect((await session.exec(input('readlink inside.txt'))).stdout).toBe('src/a.txt\n')
  })

  it('keeps the exit code and says when the sandbox stopped', async () => {
    const { runner } = fakeRunner(() => ({ exitCode: 1, stopped: 'crashed', reason: 'out of memory', changes: { '/workspace/x': encode('x') } }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    const result = await session.exec(input('node big.js; echo "exit $?"'))
    expect(result.stdout).toBe('exit 1\n')
    expect(result.stderr).toContain('fxterm: the code sandbox stopped: out of memory')
    expect(await session.readFile('x')).toBeNull() // a crashed run's changes are not kept
  })

  it('Ctrl+C (the signal) cancels the run in the sandbox and keeps nothing it reported', async () => {
    let finish!: (reply: CodeRunReply) => void
    let started!: () => void
    const running = new Promise<void>((resolve) => (started = resolve))
    const cancelled: number[] = []
    const runner: RemoteCodeRunner = {
      run: () =>
        new Promise((resolve) => {
          finish = resolve
          started()
        }),
      cancel(id) {
        cancelled.push(id)
        finish({ exitCode: 130, changes: { '/workspace/half.txt': encode('half') }, stdout: encode('partial\n'), stderr: encode(''), stopped: 'cancelled' })
      },
    }
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    const controller = new AbortController()
    const exec = session.exec(input('node -e "while (true) {}"', { signal: controller.signal }))
    await running
    controller.abort()
    const result = await exec
    expect(cancelled).toHaveLength(1)
    expect(result.exitCode).toBe(130)
    expect(await session.readFile('half.txt')).toBeNull()
  })

  it('keeps one byte of the exit status, as the OS does', async () => {
    const codes = [256, 257, -1]
    const { runner } = fakeRunner(() => ({ exitCode: codes.shift()! }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    expect((await session.exec(input('node a.js; echo $?; node b.js; echo $?; node c.js; echo $?'))).stdout).toBe('0\n1\n255\n')
  })

  it('says node and python3 are not available when there is no page to run them', async () => {
    const session = await createBashSession({ entries: seed })
    const result = await session.exec(input('node -e 1; echo "exit $?"; python3 -c 1'))
    expect(result.stdout).toBe('exit 127\n')
    expect(result.stderr).toContain("node: not available here: code runs in the page's sandbox")
    expect(result.stderr).toContain('python3: not available here')
  })

  it('says pip cannot install, without running Python', async () => {
    const { runner, requests } = fakeRunner()
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    for (const command of ['pip install requests', 'python3 -m pip install numpy', 'pip3 list']) {
      const result = await session.exec(input(command))
      expect(result.exitCode).toBe(1)
      expect(result.stderr).toMatch(/^pip: packages cannot be installed here/)
    }
    expect(requests).toEqual([])
  })
})

describe('npm in the shell', () => {
  it('npm test runs the pretest and test scripts through the shell', async () => {
    const { runner, requests } = fakeRunner(() => ({ stdout: encode('ℹ pass 1\n') }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    const result = await session.exec(input('npm test', { cwd: '/workspace/src' }))
    expect(result.stdout).toBe('\n> demo@1.0.0 pretest\n> echo lint ok\n\nlint ok\n\n> demo@1.0.0 test\n> node --test\n\nℹ pass 1\n')
    expect(result.exitCode).toBe(0)
    expect(requests[0]!.argv).toEqual(['--test'])
    expect(requests[0]!.cwd).toBe('/workspace')
  })

  it('npm run passes arguments after --, lists the scripts, and names a missing one', async () => {
    const session = await createBashSession({ entries: seed, codeRunner: fakeRunner().runner })
    expect((await session.exec(input('npm run build -- "x y"'))).stdout).toContain('built x y\n')
    expect((await session.exec(input('npm run'))).stdout).toContain('  build\n    echo built $1\n')
    const missing = await session.exec(input('npm run deploy'))
    expect(missing.exitCode).toBe(1)
    expect(missing.stderr).toContain('package.json has no "deploy" script')
  })

  it('npm install says nothing can be downloaded; a failing test script fails npm test', async () => {
    const { runner } = fakeRunner(() => ({ exitCode: 1, stdout: encode('ℹ fail 1\n') }))
    const session = await createBashSession({ entries: seed, codeRunner: runner })
    const install = await session.exec(input('npm install lodash'))
    expect(install.exitCode).toBe(1)
    expect(install.stderr).toContain('packages cannot be downloaded here')
    const test = await session.exec(input('npm test; echo "exit $?"'))
    expect(test.stdout).toContain('ℹ fail 1\nexit 1\n')
  })

  it('says when there is no package.json', async () => {
    const session = await createBashSession({ codeRunner: fakeRunner().runner })
    const result = await session.exec(input('npm test'))
    expect(result.stderr).toBe('npm: no package.json in /workspace or above it (up to /workspace)\n')
  })
})
