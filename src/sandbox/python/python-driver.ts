/**
 * Sandbox worker: the Python side of one run, defined once in the interpreter. It makes the
 * interpreter look freshly started for each run — sys.argv, sys.path[0], the directory, the
 * environment, stdin, no module of the workspace left from a run before — then runs the code
 * as `python3 -c`, a file or `-m` would, and answers the exit code as CPython would set it.
 * A socket fails at connect with a line saying there is no network here.
 */
export const DRIVER = `
import builtins, errno, importlib, io, operator, os, runpy, socket, sys, traceback

_fx_base_path = list(sys.path)
sys.dont_write_bytecode = True

# The sandbox's CSP allows no connection; say so at connect, as an unreachable network does,
# instead of failing later in a TLS handshake Pyodide cannot do.
def _fx_no_network(self, *args, **kwargs):
    raise OSError(errno.ENETUNREACH, "fxterm's python3 cannot reach the network: code here runs in a sandbox without it")
socket.socket.connect = _fx_no_network
socket.socket.connect_ex = _fx_no_network

# os._exit would end Pyodide itself (its files unreadable, the interpreter unusable): the run
# ends here instead, with the status asked for, as CPython's process would.
class _FxExit(BaseException):
    pass
def _fx_exit_now(status):
    raise _FxExit(operator.index(status))
os._exit = _fx_exit_now

def _fx_run(kind, target, args, cwd, env, root, stdin_bytes):
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if path.startswith(root + "/"):
            del sys.modules[name]
    importlib.invalidate_caches()
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(env)
    sys.stdin = io.TextIOWrapper(io.BytesIO(bytes(stdin_bytes)), encoding="utf-8")
    if kind == "file":
        script = os.path.abspath(target)
        sys.argv = [target] + list(args)
        sys.path[:] = [os.path.dirname(script)] + _fx_base_path
    else:
        sys.argv = ["-c" if kind == "code" else target] + list(args)
        sys.path[:] = [cwd if kind == "module" else ""] + _fx_base_path
    code = 0
    try:
        if kind == "code":
            main = {"__name__": "__main__", "__builtins__": builtins, "__doc__": None}
            exec(compile(target, "<string>", "exec"), main)
        elif kind == "file":
            runpy.run_path(script, run_name="__main__")
        else:
            runpy.run_module(target, run_name="__main__", alter_sys=True)
    except _FxExit as stop:
        code = stop.args[0]
    except SystemExit as stop:
        if stop.code is None:
            code = 0
        elif isinstance(stop.code, int):
            code = stop.code
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException as error:
        # The traceback without this driver's own frame, as CPython prints it.
        traceback.print_exception(type(error), error, error.__traceback__.tb_next)
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return code
`
