import { describe, expect, it } from 'vitest'
import { applyEdit, parseFileToolCall, readSlice, resolveToolPath } from './file-tool-rules'

describe('edit_file rules', () => {
  it('replaces the one place old_string matches', () => {
    expect(applyEdit('a\nb\nc\n', 'x.txt', 'b', 'B', false)).toEqual({ ok: true, content: 'a\nB\nc\n', count: 1 })
  })

  it('refuses an old_string that is not in the file, and says to copy the text exactly', () => {
    const result = applyEdit('hello\n', 'src/a.js', 'goodbye', 'x', false)
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('"old_string" was not found in src/a.js; nothing was changed') })
  })

  it('refuses an old_string that matches more than once, saying how many times', () => {
    const result = applyEdit('x = 1\nx = 1\nx = 1\n', 'a.py', 'x = 1', 'x = 2', false)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.reason).toContain('matches 3 times in a.py; nothing was changed')
  })

  it('changes every match with replace_all', () => {
    expect(applyEdit('x x x', 'a', 'x', 'y', true)).toEqual({ ok: true, content: 'y y y', count: 3 })
  })

  it('takes "$&" in new_string as text, not as a replacement pattern', () => {
    expect(applyEdit('price', 'a', 'price', '$& $1', false)).toEqual({ ok: true, content: '$& $1', count: 1 })
  })

  it('refuses an empty old_string and an edit that changes nothing', () => {
    expect(applyEdit('abc', 'a', '', 'x', false).ok).toBe(false)
    expect(applyEdit('abc', 'a', 'b', 'b', false).ok).toBe(false)
  })
})

describe('paths of the file tools', () => {
  it('resolves a relative path against the cwd', () => {
    expect(resolveToolPath('../README.md', '/workspace/src', '/workspace')).toEqual({ ok: true, absolute: '/workspace/README.md', relative: 'README.md' })
  })

  it.each([['../../x'], ['/etc/passwd'], ['/workspace'], ['..'], ['/workspace-other/a']])('refuses %s, which is outside the root', (path) => {
    const result = resolveToolPath(path, '/workspace', '/workspace')
    expect(result).toEqual({ ok: false, reason: expect.stringContaining('is outside the workspace (/workspace)') })
  })

  it('refuses a path holding a NUL byte', () => {
    expect(resolveToolPath('a\0b', '/workspace', '/workspace')).toEqual({ ok: false, reason: expect.stringContaining('contains a NUL byte') })
  })
})

describe('arguments of the file tools', () => {
  it('reads the shapes coding models send', () => {
    expect(parseFileToolCall('edit_file', '{"path":"a","old_string":"x","new_string":"y","replace_all":true}')).toEqual({
      ok: true,
      call: { name: 'edit_file', path: 'a', oldString: 'x', newString: 'y', replaceAll: true },
    })
    expect(parseFileToolCall('read_file', '{"path":"a","offset":3,"limit":2}')).toEqual({ ok: true, call: { name: 'read_file', path: 'a', offset: 3, limit: 2 } })
  })

  it('says what is wrong with arguments it cannot use', () => {
    expect(parseFileToolCall('write_file', '{"path":')).toEqual({ ok: false, reason: 'The arguments of write_file were not a JSON object, so nothing was done.' })
    expect(parseFileToolCall('write_file', '{"path":"a"}')).toEqual({ ok: false, reason: 'write_file needs "content" (a string); nothing was written.' })
    expect(parseFileToolCall('read_file', '{"path":"a","offset":0}').ok).toBe(false)
  })
})

describe('read_file', () => {
  it('numbers the lines it returns and says how to read on', () => {
    expect(readSlice('one\ntwo\nthree\n', 2, 1)).toBe('     2\ttwo\n(1 more lines; pass "offset": 3 to read on)')
  })

  it('says when the offset is past the end', () => {
    expect(readSlice('one\n', 5)).toBe('(the file has 1 lines; offset 5 is past its end)')
  })
})
