"""A warm worker for the workflow's select jobs: one forked process per job from a process that has
already imported numpy, scikit-learn, pandas/pyarrow and svmfs.

Why: a select job on a small dataset computes for a fraction of a second, but a fresh interpreter spends
about 1.2 s of CPU importing scikit-learn, scipy.stats, pandas and pyarrow before it starts
(``python -m benchmarks run job_overhead`` measures a job's fixed cost with and without the worker). Snakemake still runs one job per (dataset, method, setting, fold)
with its own ``script:``, log, benchmark, params and rerun triggers; only the job's body moves:

* the rule's script calls :func:`delegate` first, before any heavy import. ``delegate`` connects to the
  worker server of this interpreter and ``PYTHONPATH`` (a Unix socket in a private per-user folder),
  starting one if none runs, and sends the pickled ``snakemake`` object, the script's path, the working
  directory, environment and ``sys.path``, and its own stdin/stdout/stderr (SCM_RIGHTS).
* the server forks one child per job. The child takes the job's stdio, folder and environment, runs
  the script file (read from disk now, so it is the code Snakemake's code trigger saw) with
  ``snakemake`` set, and exits with the script's status. A crash, ``os._exit`` or a signal ends that
  child only (failure isolation); the server sends the exit status back and ``delegate`` exits with it.
  If the client goes away (Snakemake killed, SLURM cancel), the server kills the child's process group.
* the server never runs stale code: before each fork it compares the files of every loaded ``svmfs``
  module and the ``sys.path`` folders (a package installed or removed) with what it loaded; on a
  difference it stops listening, lets its running jobs finish and the client starts a fresh server.
  It exits after :data:`IDLE_S` seconds without a job.
* when no worker can be used (``SVMFS_WORKER=0``, no Unix sockets, an unsafe socket folder, a server
  that does not come up), ``delegate`` returns and the script runs the job in its own process, as
  before. On a SLURM node the first job starts the node's server; a bundle of jobs then shares it.

This module imports only the standard library at module level: the client side must stay cheap.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import socket
import struct
import sys
import time

#: Seconds a server stays up with no job running or arriving.
IDLE_S = float(os.environ.get("SVMFS_WORKER_IDLE", "60"))
#: Seconds a client waits for a server it started (imports under a loaded machine can take 10-20 s).
START_TIMEOUT_S = 120.0
#: Modules a server imports before its first job (what scripts/select.py and the protocol use).
PRELOAD = (
    "numpy",
    "scipy.sparse",
    "scipy.stats",
    "sklearn.svm",
    "sklearn.metrics",
    "sklearn.model_selection",
    "pandas",
    "pyarrow.parquet",
    "threadpoolctl",
    "snakemake.iocontainers",
    "snakemake.io",
    "svmfs.jobs",
    "svmfs.data.canonical",
    "svmfs.protocol.select_job",
    "svmfs.results.record",
)

#: Set in a forked child: the script's ``delegate`` call returns there and the job runs.
IN_WORKER = False
#: Also in the child's environment (and so its subprocesses'): a job never delegates to a worker again.
_CHILD_ENV = "SVMFS_WORKER_CHILD"
#: At most this many jobs at once per server; a client beyond that runs its job itself.
MAX_JOBS = 32
_HDR = struct.Struct("!Q")


def enabled() -> bool:
    return os.environ.get("SVMFS_WORKER", "1").strip().lower() not in ("0", "off", "false", "no", "")


def socket_dir() -> str | None:
    """A folder only this user can enter, or None (then no worker is used)."""
    base = os.environ.get("SVMFS_WORKER_DIR") or os.path.join(
        os.environ.get("XDG_RUNTIME_DIR") or "/tmp", f"svmfs-worker-{os.getuid()}"
    )
    try:
        os.makedirs(base, mode=0o700, exist_ok=True)
        st = os.stat(base)
    except OSError:
        return None
    if st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return base


def server_key() -> str:
    """Servers are shared by clients with the same interpreter, PYTHONPATH and svmfs package folder, and
    within one SLURM allocation only (a job's work stays in its own allocation's cgroup and limits)."""
    pkg = os.path.dirname(os.path.abspath(__file__))
    slurm = os.environ.get("SLURM_JOB_ID", "")
    text = "\0".join([sys.executable, os.environ.get("PYTHONPATH", ""), pkg, sys.version, slurm])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _send_msg(sock: socket.socket, obj, fds=()) -> None:
    data = pickle.dumps(obj, protocol=4)
    header = _HDR.pack(len(data))
    if fds:
        socket.send_fds(sock, [header], list(fds))
    else:
        sock.sendall(header)
    sock.sendall(data)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise EOFError("connection closed")
        buf += chunk
    return bytes(buf)


def _refuse(conn, fds, reply: dict) -> None:
    """Turn a client away: close the stdio it passed, tell it why (it then runs the job itself or
    starts a fresh server), close the connection."""
    for fd in fds:
        os.close(fd)
    try:
        _send_msg(conn, reply)
    except OSError:
        pass
    conn.close()


def _recv_msg(sock: socket.socket, maxfds: int = 0):
    fds: list[int] = []
    if maxfds:
        head, fds, _, _ = socket.recv_fds(sock, _HDR.size, maxfds)
        if not head:
            raise EOFError("connection closed")
        head += _recv_exact(sock, _HDR.size - len(head))
    else:
        head = _recv_exact(sock, _HDR.size)
    (n,) = _HDR.unpack(head)
    return pickle.loads(_recv_exact(sock, n)), fds


# --------------------------------------------------------------------------- client


def _connect(path: str) -> socket.socket | None:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
        return s
    except OSError:
        s.close()
        return None


def _start_server(path: str) -> None:
    import subprocess

    log = path[: -len(".sock")] + ".log"
    with open(log, "ab") as out:
        subprocess.Popen(
            [sys.executable, "-P", "-m", "svmfs.worker", path],  # -P: not the current folder on sys.path
            cwd="/",
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
            start_new_session=True,
            close_fds=True,
        )


def _submit(path: str, request: dict):
    """Send the job; return the server's reply, or None if this server cannot take it (try another)."""
    sock = _connect(path)
    if sock is None:
        return None
    with sock:
        try:
            _send_msg(sock, request, fds=[fd for fd in request["fds"]])
            reply, _ = _recv_msg(sock)
        except EOFError:
            return {"returncode": 1, "error": "the select job's worker process ended without a status"}
        except OSError:
            return None
    return None if reply.get("stale") else reply  # a stale server: the caller starts a fresh one


def _valid_fd(fd: int) -> bool:
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def _note_usage(snakemake, reply: dict) -> None:
    """Append the child's CPU time and peak memory to the job's log: Snakemake's benchmark file measures
    this client's process tree, which the forked child is not part of (its wall time still is the job's)."""
    try:
        log = snakemake.log[0]
    except (AttributeError, IndexError, KeyError, TypeError):
        return
    if "cpu_s" not in reply:
        return
    line = (
        f"{time.strftime('%Y-%m-%d %H:%M:%S')} INFO worker child: cpu {reply['cpu_s']:.3f} s, "
        f"max rss {reply['max_rss_mb']:.0f} MB, exit status {reply['returncode']}\n"
    )
    try:
        with open(log, "a") as f:
            f.write(line)
    except OSError:
        pass


def delegate(snakemake, script: str, modules=()) -> None:
    """Run this script's job in the warm worker and exit with its status; return if no worker is usable.

    ``script`` is the script's own path (``__file__``, which Snakemake's preamble sets to the real file);
    ``modules`` are imported by the server before it forks (e.g. the job's method module), so that the
    next job of the same method finds them loaded.
    """
    if IN_WORKER or os.environ.get(_CHILD_ENV) or not enabled() or not hasattr(socket, "send_fds"):
        return
    folder = socket_dir()
    if folder is None:
        return
    path = os.path.join(folder, server_key() + ".sock")
    request = {
        "script": os.path.realpath(script),
        "snakemake": pickle.dumps(snakemake, protocol=4),
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "sys_path": list(sys.path),
        "modules": list(modules),
        "fds": [fd for fd in (0, 1, 2) if _valid_fd(fd)],
    }
    deadline, started = time.monotonic() + START_TIMEOUT_S, False
    while time.monotonic() < deadline:
        reply = _submit(path, request)
        if reply is not None and reply.get("busy"):
            return
        if reply is not None:
            if reply.get("error"):
                print(f"svmfs worker: {reply['error']}", file=sys.stderr, flush=True)
            _note_usage(snakemake, reply)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(int(reply["returncode"]))  # the job's status; nothing of this process is left to do
        if not started:
            _start_server(path)
            started = True
        time.sleep(0.05)
    print("svmfs worker: no server came up; running the job in this process", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- server


def _code_files() -> dict[str, tuple[int, int]]:
    """(mtime_ns, size) of every loaded svmfs module file and every sys.path folder."""
    files = {}
    for name, mod in list(sys.modules.items()):
        f = getattr(mod, "__file__", None)
        if f and (name == "svmfs" or name.startswith("svmfs.")):
            files[f] = None
    files.update(dict.fromkeys(p for p in sys.path if p))
    out = {}
    for f in files:
        try:
            st = os.stat(f)
            out[f] = (st.st_mtime_ns, st.st_size)
        except OSError:
            out[f] = (-1, -1)
    return out


def _is_stale(loaded: dict[str, tuple[int, int]]) -> bool:
    now = _code_files()
    return any(now.get(f) != sig for f, sig in loaded.items()) or not set(now) <= set(loaded)


def _preload(names) -> None:
    import importlib

    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the job itself will meet (and log) the same error
            pass


def _run_child(request: dict, fds: list[int], inherited: list[int]) -> None:
    """In the forked child: become the job's process and run its script; never returns."""
    global IN_WORKER
    import runpy
    import traceback

    code = 1
    try:
        for fd in inherited:  # the server's socket and lock, other jobs' connections and pidfds
            os.close(fd)
        os.setpgid(0, 0)
        for target, fd in zip(request["fds"], fds):
            os.dup2(fd, target)
        for fd in fds:
            os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ[_CHILD_ENV] = "1"
        sys.path.extend(p for p in request["sys_path"] if p not in sys.path)
        sys.argv = [request["script"]]
        IN_WORKER = True
        snakemake = pickle.loads(request["snakemake"])
        try:
            runpy.run_path(request["script"], init_globals={"snakemake": snakemake}, run_name="__main__")
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            if not isinstance(e.code, (int, type(None))):
                print(e.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            code = 1
        import logging

        logging.shutdown()
    except BaseException:
        try:
            traceback.print_exc()
        except BaseException:
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def serve(path: str) -> None:
    """Listen on ``path`` until idle for :data:`IDLE_S` seconds or the loaded code changes."""
    import fcntl

    lock = open(path[: -len(".sock")] + ".lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return  # another server holds this socket
    _preload(PRELOAD)
    try:  # the package versions, read once per server (the code it serves was loaded with them)
        from svmfs.results.record import package_versions

        package_versions()
    except Exception:  # noqa: BLE001
        pass
    _Server(path, lock).run()


class _Server:
    """The server's event loop: accept jobs on the socket, fork one child each, reply with the child's
    exit status and usage, kill the child of a client that went away."""

    def __init__(self, path: str, lock) -> None:
        import selectors

        self.path, self.lock = path, lock
        self.loaded = _code_files()
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(64)
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.listener, selectors.EVENT_READ, ("listen", None))
        self.jobs: dict[int, tuple[socket.socket, int]] = {}  # pid -> (client connection, pidfd)
        self.last = time.monotonic()
        self.listening = True

    def stop_listening(self) -> None:
        if self.listening:
            self.sel.unregister(self.listener)
            self.listener.close()
            try:
                os.unlink(self.path)
            except FileNotFoundError:
                pass
            self.lock.close()
            self.listening = False

    def run(self) -> None:
        while self.listening or self.jobs:
            for key, _ in self.sel.select(timeout=1.0):
                kind, pid = key.data
                if kind == "listen":
                    if not self.accept():
                        break
                elif kind == "exit":
                    self.reap(pid)
                elif kind == "client" and pid in self.jobs:  # the client sent nothing more: it is gone
                    self.drop_client(pid)
            if self.listening and not self.jobs and time.monotonic() - self.last > IDLE_S:
                self.stop_listening()

    def accept(self) -> bool:
        """Take one client's job and fork its child; False when the server stops listening (stale code)."""
        import selectors

        conn, _ = self.listener.accept()
        conn.settimeout(30)
        try:
            request, fds = _recv_msg(conn, maxfds=3)
        except (OSError, EOFError, pickle.UnpicklingError):
            conn.close()
            return True
        if len(self.jobs) >= MAX_JOBS:
            _refuse(conn, fds, {"busy": True})
            return True
        if _is_stale(self.loaded):
            _refuse(conn, fds, {"stale": True})
            self.stop_listening()
            return False
        new = [m for m in request.get("modules", ()) if m not in sys.modules]
        if new:
            _preload(new)
            self.loaded.update(_code_files())  # the new modules' files as loaded now
        child = os.fork()
        if child == 0:
            self.sel.close()
            others = [fd for c, p in self.jobs.values() for fd in (c.fileno(), p)]
            _run_child(request, fds, [self.listener.fileno(), self.lock.fileno(), conn.fileno(), *others])
        try:
            os.setpgid(child, child)  # as the child does: killpg below must find its group
        except OSError:
            pass
        for fd in fds:
            os.close(fd)
        pidfd = os.pidfd_open(child)
        self.jobs[child] = (conn, pidfd)
        self.sel.register(pidfd, selectors.EVENT_READ, ("exit", child))
        self.sel.register(conn, selectors.EVENT_READ, ("client", child))
        return True

    def reap(self, pid: int) -> None:
        """A child ended: send its client the exit status, CPU time and peak memory."""
        conn, pidfd = self.jobs.pop(pid)
        _, status, usage = os.wait4(pid, 0)
        self.sel.unregister(pidfd)
        if conn.fileno() in self.sel.get_map():
            self.sel.unregister(conn)
        os.close(pidfd)
        reply = {
            "returncode": os.waitstatus_to_exitcode(status),
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "max_rss_mb": usage.ru_maxrss / 1024,
        }
        if reply["returncode"] < 0:
            reply = {**reply, "returncode": 1, "error": f"the select job was killed by signal {-reply['returncode']}"}
        try:
            conn.settimeout(5)
            _send_msg(conn, reply)
        except OSError:
            pass
        conn.close()
        self.last = time.monotonic()

    def drop_client(self, pid: int) -> None:
        import signal

        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.sel.unregister(self.jobs[pid][0])


if __name__ == "__main__":  # run as svmfs.worker, not __main__: the children must set svmfs.worker.IN_WORKER
    from svmfs.worker import serve as _serve

    _serve(sys.argv[1])
