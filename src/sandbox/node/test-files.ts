/**
 * Sandbox worker: which files `node --test [paths]` runs, by Node 20's rules: each path that is
 * a file; in each directory given (the current one when none is), every file whose name marks
 * it as a test (`*.test.js`, `*-test.mjs`, `*_test.cjs`, `test-*.js`, `test.js`) or that sits
 * in a `test` folder, leaving out node_modules.
 */

import { absolute, type MemoryFs } from './memory-fs'

const TEST_NAME = /(^test\.[cm]?js$)|(^test-.+\.[cm]?js$)|([.\-_]test\.[cm]?js$)/
const SCRIPT = /\.[cm]?js$/

export function findTestFiles(fs: MemoryFs, paths: string[], cwd: string): string[] {
  const found: string[] = []
  const walk = (dir: string, inTestDir: boolean) => {
    for (const name of fs.list(dir)) {
      if (name === 'node_modules' || name.startsWith('.')) continue
      const path = dir === '/' ? `/${name}` : `${dir}/${name}`
      if (fs.stat(path).kind === 'dir') walk(path, inTestDir || name === 'test')
      else if (TEST_NAME.test(name) || (inTestDir && SCRIPT.test(name))) found.push(path)
    }
  }
  for (const path of paths.length ? paths : ['.']) {
    const full = absolute(path, cwd)
    if (!fs.exists(full)) throw Object.assign(new Error(`Could not find '${full}'`), { code: 'ENOENT' })
    if (fs.stat(full).kind === 'dir') walk(full, full.split('/').includes('test'))
    else found.push(full)
  }
  return [...new Set(found)]
}
