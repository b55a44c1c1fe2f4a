/**
 * Checks a workspace adapter's `info` and `permission` against the version 1 rules of the
 * reference host contract, so a bad adapter is refused with a reason instead of misbehaving later.
 */

export type ValidationResult = { ok: true } | { ok: false; reason: string }

const OK: ValidationResult = { ok: true }

function fail(reason: string): ValidationResult {
  return { ok: false, reason }
}

/**
 * Why `path` is not a normalized absolute path, or null when it is. Normalized means: starts with
 * '/', no NUL, no empty ('//'), '.' or '..' segments, and no trailing '/' except for '/' itself.
 */
export function pathProblem(path: unknown): string | null {
  if (typeof path !== 'string') return 'must be a string'
  if (path.includes('\0')) return 'must not contain NUL bytes'
  if (!path.startsWith('/')) return 'must be an absolute path'
  if (path === '/') return null
  if (path.endsWith('/')) return "must not end with '/'"
  if (path.includes('//')) return "must not contain '//'"
  const segments = path.slice(1).split('/')
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    return "must not contain '.' or '..' segments"
  }
  return null
}

/** Validates version 1 workspace info: paths, `cwd === root`, no git, ephemeral. */
export function validateWorkspaceInfo(info: unknown): ValidationResult {
  if (typeof info !== 'object' || info === null) return fail('info must be an object')
  const record = info as Record<string, unknown>
  if (record.version !== 1) return fail('version must be 1')
  for (const key of ['root', 'cwd', 'home'] as const) {
    const problem = pathProblem(record[key])
    if (problem !== null) return fail(`${key} ${problem}`)
  }
  if (record.cwd !== record.root) return fail('cwd must equal root')
  if (record.gitAvailable !== false) return fail('gitAvailable must be false')
  if (record.ephemeral !== true) return fail('ephemeral must be true')
  if (record.extensions !== undefined) {
    const extensions = record.extensions as Record<string, unknown> | null
    if (typeof extensions !== 'object' || extensions === null) return fail('extensions must be an object')
    if (extensions.git !== undefined && typeof extensions.git !== 'boolean') return fail('extensions.git must be a boolean')
  }
  return OK
}

/** Validates a workspace permission: 'allow-sandboxed' or 'prompt'. */
export function validatePermission(permission: unknown): ValidationResult {
  if (permission === 'allow-sandboxed' || permission === 'prompt') return OK
  return fail("permission must be 'allow-sandboxed' or 'prompt'")
}
