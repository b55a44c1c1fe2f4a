/** What `python3 <argv>` asks for: code, a file or a module to run, or a line to say and exit. */
export type PythonMode =
  | { kind: 'code' | 'file' | 'module'; target: string; args: string[] }
  | { kind: 'say'; text: string; exitCode: number; fd: 1 | 2 }

const HELP = `usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
fxterm's python3 is CPython (Pyodide) in a sandbox with the workspace files, no network, no pip.
`

/** Reads argv as CPython does; `version` answers -V. */
export function parsePythonArgs(argv: string[], stdin: string | null, version: string): PythonMode {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '-V' || arg === '--version') return { kind: 'say', text: `Python ${version}\n`, exitCode: 0, fd: 1 }
    if (arg === '-h' || arg === '--help') return { kind: 'say', text: HELP, exitCode: 0, fd: 1 }
    if (arg === '-c' || arg === '-m') {
      const target = argv[i + 1]
      if (target === undefined) return { kind: 'say', text: `Argument expected for the ${arg} option\n`, exitCode: 2, fd: 2 }
      return { kind: arg === '-c' ? 'code' : 'module', target, args: argv.slice(i + 2) }
    }
    if (arg === '-') return { kind: 'code', target: stdin ?? '', args: argv.slice(i + 1) }
    if (arg.startsWith('-')) continue // -u, -B, -q, -I, -E, -X …: nothing to change here
    return { kind: 'file', target: arg, args: argv.slice(i + 1) }
  }
  if (stdin) return { kind: 'code', target: stdin, args: [] }
  return { kind: 'say', text: "python3: there is no interactive prompt here: run a file (python3 app.py) or code (python3 -c 'print(1)')\n", exitCode: 1, fd: 2 }
}
