import { getCommandNames } from 'just-bash/browser'
import { describe, expect, it } from 'vitest'
import { GIT_SUBCOMMANDS } from '../../bash-worker/git/git-subcommands'
import { DESCRIBED_COMMANDS, DESCRIBED_GIT, runCommandDescription } from './tool-description'

const EVERY = [
  { runsCode: false, persists: false },
  { runsCode: true, persists: false },
  { runsCode: false, persists: true },
  { runsCode: true, persists: true },
]

describe('the run_command description', () => {
  it('stays under 1,500 characters in every variant', () => {
    for (const facts of EVERY) expect(runCommandDescription(facts).length).toBeLessThan(1500)
  })

  it('names only commands just-bash 3.4.2 has, and lists every one it names', () => {
    const available = new Set(getCommandNames())
    const named = DESCRIBED_COMMANDS.flat()
    expect(named.filter((name) => !available.has(name))).toEqual([])
    expect(named.filter((name) => !runCommandDescription(EVERY[0]!).includes(` ${name}`))).toEqual([])
  })

  it('without a sandbox, says there is no network but git, no node, python, package manager, background job or gzip', () => {
    const missing = runCommandDescription({ runsCode: false, persists: false })
      .split('\n')
      .find((line) => line.startsWith('Not available:'))
    expect(missing).toBe(
      'Not available: network other than git (no curl or wget), node, python, package managers (npm, pip, apt), compilers, background jobs, gzip or tar.',
    )
    expect(['curl', 'wget', 'node', 'python3', 'python', 'npm', 'tar'].filter((name) => getCommandNames().includes(name))).toEqual([])
  })

  it('with a sandbox, says what node and python3 can do and that neither reaches the network', () => {
    const text = runCommandDescription({ runsCode: true, persists: true })
    expect(text).toContain('node runs files, -e and --test (fs, path, assert, node:test, util, events, process; no http, net or child_process); npm runs package.json scripts.')
    expect(text).toContain('python3 is CPython with its standard library; pip cannot install.')
    expect(text).toContain('Neither reaches the network.')
    expect(text).not.toContain('git, node, python')
  })

  it('says whether the files outlive the page', () => {
    expect(runCommandDescription({ runsCode: false, persists: false })).toContain('Files are in memory and last only as long as the page: a reload loses them.')
    expect(runCommandDescription({ runsCode: false, persists: true })).toContain('Files are kept with the session: a reload brings them back.')
  })

  it('points the model to the file tools for reading and changing files', () => {
    expect(runCommandDescription(EVERY[0]!)).toContain('use read_file, write_file and edit_file instead')
  })

  it('names only git subcommands the git command has, and says pushes are approved', () => {
    expect(DESCRIBED_GIT.filter((name) => !Object.hasOwn(GIT_SUBCOMMANDS, name))).toEqual([])
    const text = runCommandDescription(EVERY[0]!)
    expect(text).toContain(`git runs here (isomorphic-git): ${DESCRIBED_GIT.join(' ')}.`)
    expect(text).toContain('The user approves every push')
  })
})
