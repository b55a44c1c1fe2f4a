import { describe, expect, it } from 'vitest'
import { pathProblem, validatePermission, validateWorkspaceInfo } from './validate-workspace-info'

const good = {
  version: 1,
  root: '/workspace',
  cwd: '/workspace',
  home: '/home/user',
  gitAvailable: false,
  ephemeral: true,
}

describe('validateWorkspaceInfo', () => {
  it('accepts the bash workspace info and the root directory as root', () => {
    expect(validateWorkspaceInfo(good)).toEqual({ ok: true })
    expect(validateWorkspaceInfo({ ...good, root: '/', cwd: '/' })).toEqual({ ok: true })
  })

  it("accepts fxterm's extension declaring git, with gitAvailable still false", () => {
    expect(validateWorkspaceInfo({ ...good, extensions: { git: true } })).toEqual({ ok: true })
    expect(validateWorkspaceInfo({ ...good, extensions: {} })).toEqual({ ok: true })
  })

  it('rejects each broken rule with its own reason', () => {
    const cases: Array<[unknown, string]> = [
      [null, 'info must be an object'],
      ['/workspace', 'info must be an object'],
      [{ ...good, version: 2 }, 'version must be 1'],
      [{ ...good, root: 42 }, 'root must be a string'],
      [{ ...good, root: 'workspace', cwd: 'workspace' }, 'root must be an absolute path'],
      [{ ...good, root: '/work\0space' }, 'root must not contain NUL bytes'],
      [{ ...good, root: '/workspace/', cwd: '/workspace/' }, "root must not end with '/'"],
      [{ ...good, root: '//workspace' }, "root must not contain '//'"],
      [{ ...good, root: '/a//b' }, "root must not contain '//'"],
      [{ ...good, cwd: '/workspace/./x' }, "cwd must not contain '.' or '..' segments"],
      [{ ...good, home: '/home/../root' }, "home must not contain '.' or '..' segments"],
      [{ ...good, home: undefined }, 'home must be a string'],
      [{ ...good, cwd: '/workspace/src' }, 'cwd must equal root'],
      [{ ...good, gitAvailable: true }, 'gitAvailable must be false'],
      [{ ...good, ephemeral: false }, 'ephemeral must be true'],
      [{ ...good, extensions: 'git' }, 'extensions must be an object'],
      [{ ...good, extensions: { git: 'yes' } }, 'extensions.git must be a boolean'],
      [{ ...good, gitAvailable: true, extensions: { git: true } }, 'gitAvailable must be false'],
    ]
    for (const [info, reason] of cases) {
      expect({ info, result: validateWorkspaceInfo(info) }).toEqual({ info, result: { ok: false, reason } })
    }
  })

  it('allows dots inside segment names', () => {
    expect([pathProblem('/a/.hidden'), pathProblem('/a/b..c'), pathProblem('/...')]).toEqual([null, null, null])
  })
})

describe('validatePermission', () => {
  it('accepts allow-sandboxed and prompt and rejects anything else', () => {
    expect(['allow-sandboxed', 'prompt', 'allow', undefined].map(validatePermission)).toEqual([
      { ok: true },
      { ok: true },
      { ok: false, reason: "permission must be 'allow-sandboxed' or 'prompt'" },
      { ok: false, reason: "permission must be 'allow-sandboxed' or 'prompt'" },
    ])
  })
})
