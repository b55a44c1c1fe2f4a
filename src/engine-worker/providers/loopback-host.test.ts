import { describe, expect, test } from 'vitest'
import { isLocalNetworkHost, isLoopbackHost } from './loopback-host.ts'

/** Hostnames as `new URL(...).hostname` reports them. */
const hostOf = (url: string): string => new URL(url).hostname

describe('loopback and local-network hosts', () => {
  test('loopback is localhost, *.localhost, 127.0.0.0/8 and [::1], nothing else', () => {
    const urls = ['http://localhost', 'http://app.localhost', 'http://127.5.6.7', 'http://[::1]:8080', 'http://128.0.0.1', 'http://[::2]', 'http://localhost.example']
    expect(urls.map((url) => isLoopbackHost(hostOf(url)))).toEqual([true, true, true, true, false, false, false])
  })

  test('the local network adds the private IPv4 ranges, link-local, IPv6 unique-local and *.local', () => {
    const local = ['http://10.1.2.3', 'http://172.16.0.1', 'http://172.31.255.1', 'http://192.168.1.20', 'http://169.254.1.1', 'http://[fd12:3456::1]', 'http://[fe80::1]', 'http://gpu-box.local']
    const remote = ['http://172.32.0.1', 'http://8.8.8.8', 'http://[2001:db8::1]', 'https://ai-gateway.vercel.sh']
    expect(local.map((url) => isLocalNetworkHost(hostOf(url)))).toEqual(local.map(() => true))
    expect(remote.map((url) => isLocalNetworkHost(hostOf(url)))).toEqual(remote.map(() => false))
  })
})
