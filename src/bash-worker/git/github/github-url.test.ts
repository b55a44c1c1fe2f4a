import { describe, expect, it } from 'vitest'
import { githubUrl, parseGithubRepo, parseGithubUrl } from './github-url'

describe('which remotes are GitHub repositories', () => {
  it('accepts https://github.com/OWNER/REPO with .git or a trailing slash', () => {
    const demo = { owner: 'octo-cat', repo: 'demo.js' }
    expect(parseGithubUrl('https://github.com/octo-cat/demo.js')).toEqual(demo)
    expect(parseGithubUrl('https://github.com/octo-cat/demo.js.git')).toEqual(demo)
    expect(parseGithubUrl('https://GitHub.com/octo-cat/demo.js/')).toEqual(demo)
    expect(githubUrl(demo)).toBe('https://github.com/octo-cat/demo.js')
  })

  it('rejects look-alikes: other hosts, userinfo, ports, http, extra paths, odd names', () => {
    for (const url of [
      'https://github.com.evil.com/o/r',
      'https://evil.com/github.com/o/r',
      'https://user@github.com/o/r',
      'https://user:pw@github.com/o/r',
      'https://github.com@evil.com/o/r',
      'https://github.com:8443/o/r',
      'https://github.com:443/o/r',
      'http://github.com/o/r',
      'https://www.github.com/o/r',
      'https://github.com/o/r/tree/main',
      'https://github.com/o/r?x=1',
      'https://github.com/o/r#x',
      'https://github.com/o/..',
      'https://github.com/-o/r',
      'https://github.com/o%2fx/r',
      'https://github.com\\@evil.com/o/r',
      'git@github.com:o/r.git',
    ])
      expect([url, parseGithubUrl(url)]).toEqual([url, null])
  })

  it('takes OWNER/REPO shorthand for /clone, and a URL', () => {
    expect(parseGithubRepo('octo/demo')).toEqual({ owner: 'octo', repo: 'demo' })
    expect(parseGithubRepo('https://github.com/octo/demo.git')).toEqual({ owner: 'octo', repo: 'demo' })
    expect(parseGithubRepo('octo/demo/extra')).toBeNull()
    expect(parseGithubRepo('evil.com:octo/demo')).toBeNull()
  })
})
