/** Workspace files by absolute path (e.g. /workspace/src/a.js) → bytes. */
export type SandboxFiles = Record<string, Uint8Array>
export type RunRequest = {
  runtime: 'node' | 'python'
  /** Arguments after the program name, e.g. ['-e', 'console.log(1)'] or ['-m', 'unittest']. */
  argv: string[]
  /** Absolute, inside root. */
  cwd: string
  /** The workspace root, e.g. /workspace; nothing outside it is visible. */
  root: string
  env: Record<string, string>
  /** Every workspace file as it is before the run. */
  files: SandboxFiles
  stdin?: Uint8Array
}
export type RunIo = {
  stdout(bytes: Uint8Array): void
  stderr(bytes: Uint8Array): void
  /** One line for the activity row, e.g. 'Loading Python (first use)…'. */
  progress(line: string): void
  /**
   * One of fxterm's own asset files by name (e.g. 'pyodide.asm.wasm'), as the Blob the page
   * fetched; the page serves only the names it knows.
   */
  loadAsset(name: string): Promise<Blob>
}
export type RunResult = {
  exitCode: number
  /** Files created or changed (bytes) or removed (null) by the run. */
  changes: Record<string, Uint8Array | null>
}
export interface SandboxRuntime {
  run(request: RunRequest, io: RunIo): Promise<RunResult>
  /** Loads what a first run would wait for (Python's interpreter), before any run asks; settles once it is ready (or failed). */
  prepare?(io: Pick<RunIo, 'loadAsset'>): Promise<void> | void
  /** Runs the runtime's own code once as the worker starts, before any run (a run sent meanwhile waits for it). */
  warm?(): Promise<void>
}

/** What the page answers the bash worker for one run: the result plus the output it collected. */
export type CodeRunReply = RunResult & {
  stdout: Uint8Array
  stderr: Uint8Array
  /** Set when the run did not end by itself: the sandbox was torn down or never started. */
  stopped?: 'cancelled' | 'crashed' | 'unavailable'
  /** Why, for 'crashed' and 'unavailable'. */
  reason?: string
}

/**
 * How the bash worker runs code: the page serves this over comlink. `cancel(id)` stops run `id`
 * (the sandbox is torn down; its reply then says `stopped: 'cancelled'`).
 */
export type CodeRunner = {
  run(id: number, request: RunRequest): Promise<CodeRunReply>
  cancel(id: number): void
}
