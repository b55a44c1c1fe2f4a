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
