/**
 * Bash worker side: isomorphic-git's errors as lines a person (or a model) can act on. A
 * damaged object, an unreadable pack and a missing object are named as what they are.
 */

export function describeGitError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  const code = (error as { code?: string } | null)?.code
  if (/compressed buffer|incorrect header check|invalid (stored block|distance|code)|unexpected end of file/i.test(message)) {
    return `the repository is damaged: an object in .git cannot be read (${message})`
  }
  if (code === 'InternalError' && /pack/i.test(message)) {
    return `a pack file in .git cannot be read: an unsupported pack version or a damaged file (${message})`
  }
  if (code === 'NotFoundError' && /[0-9a-f]{40}/.test(message)) {
    return `${message.replace(/\.$/, '')}: the repository lacks that object (a shallow clone's boundary, or a damaged repository)`
  }
  return message
}

/** The warning a clone adds when the repository keeps files in Git LFS (`filter=lfs` in .gitattributes). */
export function lfsWarning(gitattributes: string | null): string {
  if (gitattributes === null || !/\bfilter=lfs\b/.test(gitattributes)) return ''
  return "warning: this repository keeps some files in Git LFS, which fxterm's git does not fetch: those files are LFS pointer text here\n"
}
