/**
 * Bash worker side: which remotes are GitHub repositories. fxterm speaks GitHub's REST API only
 * for `https://github.com/OWNER/REPO(.git)`, so a look-alike (github.com.evil.com, a userinfo
 * part, another port, http://) must never match: the page attaches the person's token to what
 * this path fetches.
 */

/** A repository on github.com. */
export type GithubRepo = { owner: string; repo: string }

// GitHub's own rules: owners are 1-39 letters, digits and inner hyphens; repository names are
// letters, digits, '.', '-', '_' (never '.' or '..').
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/
const REPO = /^[A-Za-z0-9._-]{1,100}$/

function repoOf(owner: string, name: string): GithubRepo | null {
  const repo = name.endsWith('.git') ? name.slice(0, -4) : name
  if (!OWNER.test(owner) || !REPO.test(repo) || repo === '.' || repo === '..') return null
  return { owner, repo }
}

/** `https://github.com/OWNER/REPO`, with `.git` and one trailing `/` allowed; anything else is null. */
export function parseGithubUrl(url: string): GithubRepo | null {
  // Matched on the text itself rather than through URL(): URL() would quietly accept and
  // normalise userinfo, `:443`, a backslash or a percent-encoded host.
  const match = /^https:\/\/github\.com\/([^/?#@:\\%]+)\/([^/?#@:\\%]+?)\/?$/i.exec(url)
  return match ? repoOf(match[1]!, match[2]!) : null
}

/** A GitHub URL as above, or the `OWNER/REPO` shorthand `/clone` takes. */
export function parseGithubRepo(text: string): GithubRepo | null {
  const shorthand = /^([^/?#@:\\%]+)\/([^/?#@:\\%]+)$/.exec(text)
  return shorthand ? repoOf(shorthand[1]!, shorthand[2]!) : parseGithubUrl(text)
}

/** The URL fxterm writes as the `origin` of a clone: `https://github.com/OWNER/REPO`. */
export function githubUrl({ owner, repo }: GithubRepo): string {
  return `https://github.com/${owner}/${repo}`
}
