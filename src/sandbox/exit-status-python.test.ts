// The driver's exit codes in a real interpreter (Pyodide from node_modules, as Node loads it).
import { describe, expect, it } from 'vitest'
import { loadPyodide } from 'pyodide'
import { DRIVER } from './python/python-driver'
import { exitStatus } from './exit-status'

describe('python3 exit codes', () => {
  it('are as CPython gives them: os._exit(5) is 5 and ends only the run, sys.exit(300) is 44', async () => {
    const pyodide = await loadPyodide()
    pyodide.setStdout({ batched: () => undefined })
    pyodide.setStderr({ batched: () => undefined })
    pyodide.runPython(DRIVER)
    const run = pyodide.globals.get('_fx_run') as (...args: unknown[]) => number
    const code = (source: string) => exitStatus(Number(run('code', source, [], '/', pyodide.toPy({}), '/workspace', new Uint8Array())))
    const cases = ['import os; os._exit(5)', 'import os; os._exit(300)', 'import sys; sys.exit(300)', 'import sys; sys.exit(-1)', 'raise ValueError()', 'pass']
    expect(cases.map(code)).toEqual([5, 44, 44, 255, 1, 0])
  }, 120_000)
})
