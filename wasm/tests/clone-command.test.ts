/** /clone: the person's git clone, run as their own shell command. */
import { describe, expect, test } from 'vitest'
import { createHarness } from './harness.ts'

const text = (h: Awaited<ReturnType<typeof createHarness>>) => h.screen().replace(/\s+/g, ' ')

describe('/clone', () => {
  test('owner/repo clones from GitHub as the person\'s command, with no model request', async () => {
    const h = await createHarness({ sessions: true })
    await h.type('/clone ada/city-greeter\r')
    const exec = h.lastOf('exec')!
    expect(exec.request.command).toBe('git clone https://github.com/ada/city-greeter')
    await h.exec(exec.id, { stdout: '', stderr: "Cloning into 'city-greeter'...\n", exitCode: 0 })
    expect(h.allOf('model_request')).toEqual([])
    expect(text(h)).toContain('● Ran git clone https://github.com/ada/city-greeter')
  })

  test('a URL and a branch are passed on; anything that could change the shell line is refused', async () => {
    const h = await createHarness({ sessions: true })
    await h.type('/clone http://127.0.0.1:4000/repo.git dev\r')
    expect(h.lastOf('exec')!.request.command).toBe('git clone --branch dev http://127.0.0.1:4000/repo.git')
    await h.exec(h.lastOf('exec')!.id, { stdout: '', stderr: '', exitCode: 0 })
    const before = h.allOf('exec').length
    for (const bad of ['/clone ada/demo;rm -rf .', '/clone https://x.test/$(id)', '/clone https://me:pw@x.test/r', '/clone ada', '/clone a/b/c', '/clone ada/demo --upload-pack=x', '/clone']) {
      await h.type(`${bad}\r`)
    }
    expect(h.allOf('exec').length).toBe(before)
    expect(text(h)).toContain('Usage: /clone <owner/repo> [branch], or /clone <https URL> [branch].')
  })
})
