/** Path helpers shared by both sides of the workspace worker boundary. */

/**
 * Resolves `path` against the absolute directory `base` (unless it is absolute already) and
 * normalizes it: no empty, '.' or '..' segments ('..' stops at '/'), no trailing slash.
 */
export function resolveWorkspacePath(path: string, base: string): string {
  const joined = path.startsWith('/') ? path : `${base}/${path}`
  const segments: string[] = []
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') segments.pop()
    else segments.push(segment)
  }
  return `/${segments.join('/')}`
}
