import { getCommandNames } from 'just-bash/browser'
import { describe, expect, it } from 'vitest'
import { DESCRIBED_COMMANDS, RUN_COMMAND_DESCRIPTION } from './tool-description'

describe('the run_command description', () => {
  it('stays under 900 characters', () => {
    expect(RUN_COMMAND_DESCRIPTION.length).toBeLessThan(900)
  })

  it('names only commands just-bash 3.4.2 has, and lists every one it names', () => {
    const available = new Set(getCommandNames())
    const named = DESCRIBED_COMMANDS.flat()
    expect(named.filter((name) => !available.has(name))).toEqual([])
    expect(named.filter((name) => !RUN_COMMAND_DESCRIPTION.includes(` ${name}`))).toEqual([])
  })

  it('says there is no network, git, node, python, package manager, background job or gzip', () => {
    const missing = RUN_COMMAND_DESCRIPTION.split('\n').find((line) => line.startsWith('Not available:'))
    expect(missing).toBe(
      'Not available: network (no curl or wget), git, node, python, package managers (npm, pip, apt), compilers, background jobs, gzip or tar.',
    )
    expect(['curl', 'wget', 'git', 'node', 'python3', 'python', 'npm', 'tar'].filter((name) => getCommandNames().includes(name))).toEqual([])
  })

  it('says the files last only as long as the page', () => {
    expect(RUN_COMMAND_DESCRIPTION).toContain('Files are in memory and last only as long as the page: a reload loses them.')
  })

  it('points the model to the file tools for reading and changing files', () => {
    expect(RUN_COMMAND_DESCRIPTION).toContain('use read_file, write_file and edit_file instead')
  })
})
