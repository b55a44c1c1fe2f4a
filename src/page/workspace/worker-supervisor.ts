/**
 * Keeps at most one bash worker alive: starts it on demand (seeded from the main thread's
 * snapshot), forgets it when it dies, and replaces it at once when the watchdog had to kill it,
 * so the next command does not also pay for the restart.
 */

import type { GitHost } from '../../shared/workspace/git/git-host'
import { proxy } from 'comlink'
import type { WorkerInit } from '../../shared/messages/bash-worker-api'
import type { CodeRunner } from '../../shared/sandbox/runtime-types'
import { messageOf } from '../../shared/workspace/exec-result'
import { connectWorker, unlessDead, type DeathReason, type WorkerConnection } from './worker-connection'

export type WorkerSupervisor = {
  /** The running worker, started if needed; a string says why there is none. */
  connect(): Promise<WorkerConnection | string>
  /** Whether a worker is running or starting (its files may differ from the snapshot's). */
  started(): boolean
  /** Terminates `conn` (a command in it would not stop) and starts a replacement right away. */
  replace(conn: WorkerConnection, reason: DeathReason): void
  /** Drops the worker (none is running a command); the next `connect` starts one from `init`. */
  restart(): void
  /** Terminates the worker; `connect` answers "closed" from then on. */
  dispose(): void
}

/** The message for a worker that died before answering. */
export function describeDeath(reason: DeathReason): string {
  if (typeof reason === 'object') {
    return `the shell stopped unexpectedly (${reason.crashed}); it restarts with the files as of the last finished command`
  }
  if (reason === 'disposed') return 'the workspace has been closed'
  return `the shell was stopped (${reason})`
}

/**
 * `spawn` creates a worker; `init` is read each time one starts, so a replacement gets the
 * snapshot and shell variables as of that moment. `codeRunner` is lent to each worker (over
 * comlink) to run `node` and `python3`, and `gitHost` for git's pushes and GitHub requests.
 */
export function createWorkerSupervisor(spawn: () => Worker, init: () => WorkerInit, codeRunner?: CodeRunner, gitHost?: GitHost): WorkerSupervisor {
  let live: WorkerConnection | null = null
  let connection: Promise<WorkerConnection | string> | null = null
  let disposed = false

  function kill(conn: WorkerConnection, reason: DeathReason): void {
    if (live === conn) {
      live = null
      connection = null
    }
    conn.terminate(reason)
  }

  function connect(): Promise<WorkerConnection | string> {
    if (disposed) return Promise.resolve(describeDeath('disposed'))
    if (connection) return connection
    const attempt = start()
    connection = attempt
    void attempt.then((result) => {
      if (typeof result === 'string' && connection === attempt) connection = null // retry later
    })
    return attempt
  }

  async function start(): Promise<WorkerConnection | string> {
    let conn: WorkerConnection
    try {
      conn = connectWorker(spawn())
    } catch (error) {
      return `could not start the shell: ${messageOf(error)}`
    }
    live = conn
    void conn.dead.then(() => {
      // A crash (kill() already forgot the others): the next call starts a new worker.
      if (live !== conn) return
      live = null
      connection = null
    })
    const started = await unlessDead(
      conn,
      conn.api.init(init(), codeRunner ? proxy(codeRunner) : undefined, gitHost ? proxy(gitHost) : undefined).catch((error: unknown) => ({ ok: false as const, error: messageOf(error) })),
      (reason) => ({ ok: false as const, error: describeDeath(reason) }),
    )
    if (started.ok) return conn
    kill(conn, { crashed: started.error })
    return `could not start the shell: ${started.error}`
  }

  return {
    connect,
    started: () => connection !== null,
    replace(conn, reason) {
      kill(conn, reason)
      void connect()
    },
    restart() {
      if (live) kill(live, 'cancel')
      connection = null
    },
    dispose() {
      disposed = true
      if (live) kill(live, 'disposed')
    },
  }
}
