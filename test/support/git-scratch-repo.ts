/**
 * Tests only: makes commits for a bash session's repository with isomorphic-git's API, for
 * the network tests that must not wait for fxterm's own `git commit`. The repository lives in
 * a scratch in-memory fs (cloned from the test server); `commit` adds a commit there, and
 * `copyInto` writes the whole repository, .git included, into the session with putFiles.
 */

import git from 'isomorphic-git'
import { InMemoryFs } from 'just-bash/browser'
import { gitFs } from '../../src/bash-worker/git/git-fs'
import { remoteHttp } from '../../src/bash-worker/git/remote-http'
import type { BashSession } from '../../src/bash-worker/bash-session'

const DIR = '/r'
const AUTHOR = { name: 'Ada', email: 'ada@example.com', timestamp: 1700000100, timezoneOffset: 0 }

export type ScratchRepo = {
  /** Writes `files` (path → text), stages them and commits; answers the new commit's id. */
  commit(files: Record<string, string>, message: string): Promise<string>
  /** Writes every file of the scratch repository into `session` under `target`. */
  copyInto(session: BashSession, target: string): Promise<void>
}

export async function scratchClone(url: string): Promise<ScratchRepo> {
  const scratch = new InMemoryFs()
  const fs = gitFs(scratch)
  await scratch.mkdir(DIR, { recursive: true })
  await git.clone({ fs, http: remoteHttp({ proxy: null, maxResponseBytes: 1 << 30, tooBig: () => '' }), dir: DIR, url, corsProxy: '' })
  let tick = 0
  return {
    async commit(files, message) {
      for (const [path, text] of Object.entries(files)) {
        await scratch.mkdir(`${DIR}/${path}`.replace(/\/[^/]*$/, ''), { recursive: true })
        await scratch.writeFile(`${DIR}/${path}`, text)
        await git.add({ fs, dir: DIR, filepath: path })
      }
      const when = { ...AUTHOR, timestamp: AUTHOR.timestamp + tick++ }
      return git.commit({ fs, dir: DIR, message, author: when, committer: when })
    },
    async copyInto(session, target) {
      const write: Array<[string, Uint8Array]> = []
      const walk = async (path: string): Promise<void> => {
        for (const name of await scratch.readdir(path)) {
          const full = `${path}/${name}`
          if ((await scratch.stat(full)).isDirectory) await walk(full)
          else write.push([`${target}${full.slice(DIR.length)}`, await scratch.readFileBuffer(full)])
        }
      }
      await walk(DIR)
      await session.putFiles(write, [])
    },
  }
}
