/**
 * The Python side of a run, put into the interpreter before its memory snapshot is taken (at
 * build time: build-plugins/python-snapshot.ts). Every run starts from that snapshot in an
 * interpreter of its own, so nothing one run leaves behind reaches the next; this module only
 * sets the run up as `python3 -c`, a file or `-m` would (argv, path, directory, environment,
 * stdin), runs it in `__main__`, runs its atexit hooks, and answers the exit code as CPython
 * sets it. A socket fails at connect with a line saying there is no network here.
 *
 * It lives as the module `_fxterm_driver`, not in `__main__`, so `-c` code sees the
 * `__main__` of a freshly started CPython.
 */
export const DRIVER = `
import atexit, builtins, errno, io, os, runpy, socket, sys, traceback

_base_path = list(sys.path)
sys.dont_write_bytecode = True

# The sandbox's CSP allows no connection; say so at connect, as an unreachable network does,
# instead of failing later in a TLS handshake Pyodide cannot do.
def _no_network(self, *args, **kwargs):
    raise OSError(errno.ENETUNREACH, "fxterm's python3 cannot reach the network: code here runs in a sandbox without it")
socket.socket.connect = _no_network
socket.socket.connect_ex = _no_network

def _exit_code(stop):
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1

def run(kind, target, args, cwd, env, stdin_bytes):
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    sys.stdin = io.TextIOWrapper(io.BytesIO(bytes(stdin_bytes)), encoding="utf-8")
    if kind == "file":
        script = os.path.abspath(target)
        sys.argv = [target] + list(args)
        sys.path[:] = [os.path.dirname(script)] + _base_path
    else:
        sys.argv = ["-c" if kind == "code" else target] + list(args)
        sys.path[:] = [cwd if kind == "module" else ""] + _base_path
    code = 0
    try:
        if kind == "code":
            main = sys.modules["__main__"]
            exec(compile(target, "<string>", "exec"), main.__dict__)
        elif kind == "file":
            runpy.run_path(script, run_name="__main__")
        else:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        code = _exit_code(stop)
    except BaseException as error:
        # The traceback without this driver's own frame, as CPython prints it.
        traceback.print_exception(type(error), error, error.__traceback__.tb_next)
        code = 1
    # As CPython does at exit; a hook's SystemExit sets the code as well.
    try:
        atexit._run_exitfuncs()
    except SystemExit as stop:
        code = _exit_code(stop)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return code
`

/** Python that installs DRIVER as the module `_fxterm_driver` and leaves `__main__` as it was. */
export const INSTALL_DRIVER = `
import sys as _sys, types as _types
_driver = _types.ModuleType("_fxterm_driver")
exec(compile(${JSON.stringify(DRIVER)}, "<fxterm>", "exec"), _driver.__dict__)
_sys.modules["_fxterm_driver"] = _driver
del _sys, _types, _driver
`
