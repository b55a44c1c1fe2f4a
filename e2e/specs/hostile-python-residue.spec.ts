// One python3 run cannot reach the next (issue 31): each attempt leaves something behind in one
// run — a patched stdlib module, a module or path entry, a global, a file outside /workspace, an
// exit hook, a thread, a trace function, a JS timer — and the next run, in the same page, sees a
// freshly started interpreter. A MemoryError gives the memory back, and exit codes are CPython's.
import { hostileTest as test, expect } from '../support/bait.ts'
import { openDemo } from '../support/app.ts'
import { runCommand } from '../support/run-code.ts'

// Python's first load, under the load of a shared machine: generous.
test.setTimeout(240_000)

type Attempt = {
  name: string
  /** Python run first: it leaves something behind. */
  leave: string
  /** Python run next: prints what a fresh interpreter prints. */
  check: string
  clean: string
}

const ATTEMPTS: Attempt[] = [
  {
    name: 'json.dumps monkeypatched',
    leave: 'import json\njson.dumps = lambda *a, **k: "PATCHED"',
    check: 'import json\nprint(json.dumps([1]))',
    clean: '[1]\n',
  },
  {
    name: 'builtins.print replaced',
    leave: 'import builtins\nbuiltins.print = lambda *a, **k: None',
    check: 'print("clean")',
    clean: 'clean\n',
  },
  {
    name: 'os.listdir replaced',
    leave: 'import os\nos.listdir = lambda path=".": ["planted"]',
    check: 'import os\nprint(type(os.listdir).__name__, "planted" in os.listdir("/"))',
    clean: 'builtin_function_or_method False\n',
  },
  {
    name: 'a module added to sys.modules and a stdlib one swapped',
    leave: 'import sys, types\nsys.modules["planted"] = types.ModuleType("planted")\nsys.modules["string"] = types.ModuleType("string")',
    check: 'import sys, string\nprint("planted" in sys.modules, string.digits)',
    clean: 'False 0123456789\n',
  },
  {
    name: 'sys.path extended',
    leave: 'import sys\nsys.path.insert(0, "/tmp/planted")\nsys.path.append("/home/user/planted")',
    check: 'import sys\nprint([p for p in sys.path if "planted" in p])',
    clean: '[]\n',
  },
  {
    name: 'a global left in __main__',
    leave: 'import __main__\n__main__.PLANTED = 1\nleft = 2',
    check: 'print(sorted(name for name in globals() if not name.startswith("__")))',
    clean: '[]\n',
  },
  {
    name: 'a file written to /tmp (a module that would shadow json)',
    leave: 'open("/tmp/planted.txt", "w").write("x")\nopen("/tmp/json.py", "w").write("print(\\"HIJACKED\\")")\nimport sys\nsys.path.insert(0, "/tmp")',
    check: 'import os, json\nprint(os.path.exists("/tmp/planted.txt"), os.path.exists("/tmp/json.py"))',
    clean: 'False False\n',
  },
  {
    name: 'files written to /home (a sitecustomize among them)',
    leave: [
      'import os, sys',
      'open("/home/user/.planted", "w").write("x")',
      'packages = f"/home/user/.local/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"',
      'os.makedirs(packages, exist_ok=True)',
      'open(os.path.join(packages, "usercustomize.py"), "w").write("print(\\"HIJACKED\\")")',
    ].join('\n'),
    check: 'import os\nprint(os.path.exists("/home/user/.planted"), sorted(os.listdir("/home/user")))',
    clean: 'False []\n',
  },
  {
    name: 'an atexit hook (it runs at its own run\'s end, as in CPython)',
    leave: 'import atexit\natexit.register(print, "HOOK")\nprint("registered")',
    check: 'print("clean")',
    clean: 'clean\n',
  },
  {
    name: 'a thread started',
    leave: 'import threading, time\ntry:\n    threading.Thread(target=lambda: [print("THREAD") or time.sleep(0.001) for _ in range(10**6)], daemon=True).start()\nexcept RuntimeError:\n    pass',
    check: 'import threading\nprint(threading.active_count())',
    clean: '1\n',
  },
  {
    name: 'sys.settrace and sys.setprofile',
    leave: 'import sys\nsys.settrace(lambda *a: print("TRACED"))\nsys.setprofile(lambda *a: print("PROFILED"))',
    check: 'import sys\nprint(sys.gettrace(), sys.getprofile())',
    clean: 'None None\n',
  },
  {
    name: 'a JS timer that prints from a later run',
    leave: 'import js\nfrom pyodide.ffi import create_proxy\njs.setInterval(create_proxy(lambda: print("TIMER")), 1)',
    check: 'import time\nstart = time.time()\nwhile time.time() - start < 0.3:\n    pass\nprint("clean")',
    clean: 'clean\n',
  },
]

const py = (code: string) => `python3 -c '${code.replaceAll("'", `'"'"'`)}'`

test('nothing one python3 run leaves behind is seen by the next', async ({ page }) => {
  await openDemo(page)
  for (const attempt of ATTEMPTS) {
    await test.step(attempt.name, async () => {
      const left = await runCommand(page, py(attempt.leave))
      expect(left.stderr, `${attempt.name}: the run that leaves it`).toBe('')
      expect(await runCommand(page, py(attempt.check)), `${attempt.name}: the next run`).toEqual({ stdout: attempt.clean, stderr: '', exitCode: 0 })
    })
  }
})

test("an atexit hook runs at its own run's end, and only there", async ({ page }) => {
  await openDemo(page)
  expect(await runCommand(page, py('import atexit\natexit.register(print, "HOOK")\nprint("registered")'))).toEqual({ stdout: 'registered\nHOOK\n', stderr: '', exitCode: 0 })
  expect(await runCommand(page, py('print("next")'))).toEqual({ stdout: 'next\n', stderr: '', exitCode: 0 })
})

test('after a MemoryError the next run works in an interpreter with its memory given back', async ({ page }) => {
  await openDemo(page)
  const greedy = await runCommand(page, py('blocks = [bytearray(2**31 - 1) for _ in range(3)]'))
  expect(greedy.exitCode).toBe(1)
  expect(greedy.stderr).toMatch(/MemoryError\n$/)
  // The wasm memory of the run after: the snapshot's, not the gigabytes the greedy run grew to.
  const next = await runCommand(page, py('import pyodide_js\nprint(pyodide_js._module.HEAP8.length < 100 * 2**20)'))
  expect(next).toEqual({ stdout: 'True\n', stderr: '', exitCode: 0 })
})

test('exit codes are those CPython gives on Linux', async ({ page }) => {
  await openDemo(page)
  const cases: Array<[string, number]> = [
    ['import os\nos._exit(5)', 5],
    ['import sys\nsys.exit(300)', 44],
    ['import sys\nsys.exit(-1)', 255],
    ['raise SystemExit(3)', 3],
    ['import os\nos._exit(0)', 0],
  ]
  for (const [code, exitCode] of cases) {
    expect((await runCommand(page, `${py(code)}; echo "exit $?"`)).stdout, code).toBe(`exit ${exitCode}\n`)
  }
  // And the interpreter after an os._exit is a working one.
  expect(await runCommand(page, py('print("after")'))).toEqual({ stdout: 'after\n', stderr: '', exitCode: 0 })
})

test("loading Python does not count against the command's time limit", async ({ page }) => {
  // Python's wasm is held back well past the command's 5 s limit: the command still runs.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(/pyodide\.asm.*\.wasm$/, async (route) => {
    await held
    await route.continue()
  })
  await openDemo(page)
  const started = Date.now()
  const result = runCommand(page, py('print("ran")'), { timeoutMs: 5_000 })
  await expect.poll(() => Date.now() - started, { timeout: 20_000 }).toBeGreaterThan(8_000)
  release()
  expect(await result).toEqual({ stdout: 'ran\n', stderr: '', exitCode: 0 })
})
