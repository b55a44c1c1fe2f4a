/**
 * Loopback detection for model server URLs: plain http is acceptable only when the bytes never
 * leave the machine (a local Ollama or LM Studio), and browsers treat these hosts specially.
 */

/**
 * True for `localhost` (and `*.localhost`), any 127.0.0.0/8 address and `[::1]`, given a
 * `URL.hostname` (IPv6 in brackets, as `URL` reports it).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (host === '[::1]') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) && host.split('.').every((part) => Number(part) <= 255)
}

/**
 * True for hosts on the machine or the local network: loopback, the private IPv4 ranges
 * (10/8, 172.16/12, 192.168/16, link-local 169.254/16), IPv6 unique-local and link-local
 * addresses, and `*.local` names. Chrome asks the user before a public page may reach these
 * (Local Network Access), so a refusal there looks like every other failed fetch.
 */
export function isLocalNetworkHost(hostname: string): boolean {
  const host = hostname.toLowerCase()
  if (isLoopbackHost(host) || host.endsWith('.local')) return true
  const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host)
  if (v4 !== null) {
    const a = Number(v4[1])
    const b = Number(v4[2])
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
  }
  return /^\[(f[cd][0-9a-f]{2}|fe[89ab][0-9a-f]):/.test(host)
}
