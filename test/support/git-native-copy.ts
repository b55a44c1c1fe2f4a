/**
 * Tests only: copies a repository native git made (work tree and .git) into fxterm's session,
 * so a test can build history with native git's add/commit and then run the same command on
 * both sides.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { BashSession } from '../../src/bash-worker/bash-session'

export async function copyNativeRepo(nativeDir: string, session: BashSession, root = '/workspace'): Promise<void> {
  const files: Array<readonly [string, Uint8Array]> = []
  const walk = (rel: string) => {
    for (const name of readdirSync(join(nativeDir, rel))) {
      const path = rel === '' ? name : `${rel}/${name}`
      if (statSync(join(nativeDir, path)).isDirectory()) walk(path)
      else files.push([`${root}/${path}`, new Uint8Array(readFileSync(join(nativeDir, path)))])
    }
  }
  walk('')
  await session.putFiles(files, [])
}
