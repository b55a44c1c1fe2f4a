// Types for cors-proxy.mjs.

/** One request the proxy forwarded: where to, and every header it carried. */
export type ProxiedRequest = { method: string; url: string; headers: Record<string, string | string[] | undefined> }

export type CorsProxy = {
  port: number
  /** http://127.0.0.1:<port>, the value for http.corsProxy. */
  url: string
  passed: ProxiedRequest[]
  close(): Promise<void>
}

export function startCorsProxy(options?: { port?: number; protocol?: 'http' | 'https' }): Promise<CorsProxy>
