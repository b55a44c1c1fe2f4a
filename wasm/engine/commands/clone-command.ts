// /clone <owner/repo | https URL> [branch]: the person's `git clone` of a repository into the
// workspace, run as their own shell command (like `!git clone …`), so its output is a row and
// the model learns of it with the next prompt. Only safe characters reach the shell line.

const GITHUB = 'https://github.com/'

function isNameChar(c: i32): bool {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x2d || c == 0x5f || c == 0x2e
}

function isUrlChar(c: i32): bool {
  // No quote, space, `$`, backtick, `;`, `&`, `|` or `@` (userinfo): the URL goes into a shell line.
  return isNameChar(c) || c == 0x2f || c == 0x3a || c == 0x7e || c == 0x25 || c == 0x2b || c == 0x3d || c == 0x3f
}

function all(s: string, ok: (c: i32) => bool): bool {
  if (s.length == 0) return false
  for (let i = 0; i < s.length; i++) if (!ok(s.charCodeAt(i))) return false
  return true
}

/** `owner/repo` → its GitHub URL; an http(s) URL as it is; '' for anything else. */
export function cloneUrl(target: string): string {
  if (target.startsWith('https://') || target.startsWith('http://')) return all(target, isUrlChar) ? target : ''
  const slash = target.indexOf('/')
  if (slash <= 0 || slash != target.lastIndexOf('/')) return ''
  const owner = target.substring(0, slash)
  const repo = target.substring(slash + 1)
  if (!all(owner, isNameChar) || !all(repo, isNameChar) || owner.startsWith('.') || repo.startsWith('.')) return ''
  return GITHUB + owner + '/' + repo
}

/** The shell line /clone runs, or '' when `arg` is not something it can clone. */
export function cloneShellLine(arg: string): string {
  const words = arg.split(' ').filter((w) => w.length > 0)
  if (words.length == 0 || words.length > 2) return ''
  const url = cloneUrl(words[0])
  if (url.length == 0) return ''
  if (words.length == 2) {
    if (!all(words[1], (c) => isNameChar(c) || c == 0x2f) || words[1].startsWith('-')) return ''
    return 'git clone --branch ' + words[1] + ' ' + url
  }
  return 'git clone ' + url
}

export const CLONE_USAGE = 'Usage: /clone <owner/repo> [branch], or /clone <https URL> [branch]. It runs git clone in the workspace.'
