// Types for git-http-server.mjs.

/** A fault the server plays until changed; see the module comment. */
export type GitServerFault = {
  status?: 401 | 403 | 404
  cutUploadPackAfter?: number
  cutReceivePackAfter?: number
}

export type GitServerRequest = { method: string; path: string; authorization: string | null }

export type GitHttpServer = {
  port: number
  /** http://127.0.0.1:<port>; a repository `x.git` under root is at `${url}/x.git`. */
  url: string
  requests: GitServerRequest[]
  setFault(fault: GitServerFault): void
  close(): Promise<void>
}

export function startGitHttpServer(options: { root: string; port?: number }): Promise<GitHttpServer>
