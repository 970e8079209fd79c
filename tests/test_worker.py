"""The warm worker of select jobs (svmfs.worker): cheap client, one forked child per job, exit statuses
and crashes passed back, a server that never serves code older than the files, and the fallback."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: A stand-in for a rule's script: delegates like scripts/select.py, then reports who ran it.
JOB = """
import os, sys
from svmfs.worker import delegate
delegate(snakemake, __file__)
import json
out = snakemake["out"]
with open(out, "w") as f:
    json.dump({"pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(), "child": os.environ.get("SVMFS_WORKER_CHILD"),
               "numpy": "numpy" in sys.modules, "marker": os.environ.get("JOB_MARKER")}, f)
print("job says hello")
if snakemake.get("crash"):
    os.abort()
sys.exit(snakemake.get("code", 0))
"""


@pytest.fixture
def env(tmp_path):
    """A private copy of the package (to edit it) and a private socket folder."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src" / "svmfs", src / "svmfs", ignore=shutil.ignore_patterns("__pycache__"))
    sock = tmp_path / "sock"
    sock.mkdir(mode=0o700)
    e = {**os.environ, "PYTHONPATH": str(src), "SVMFS_WORKER_DIR": str(sock), "SVMFS_WORKER_IDLE": "20"}
    e.pop("SVMFS_WORKER", None)
    e.pop("SVMFS_WORKER_CHILD", None)
    (tmp_path / "job.py").write_text(JOB)
    yield e
    _stop_servers(sock)


def _stop_servers(sock: Path) -> None:
    """SIGTERM to this test's servers (found by their socket path under ``sock``)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"svmfs.worker" in args and any(a.startswith(str(sock).encode()) for a in args):
            try:
                os.kill(int(proc.name), signal.SIGTERM)
            except ProcessLookupError:
                pass


def run_job(tmp_path, env, **sm):
    """Run job.py the way Snakemake's script: does (a fresh interpreter with ``snakemake`` set)."""
    out = tmp_path / f"out-{time.monotonic_ns()}.json"
    sm = {"out": str(out), **sm}
    code = f"import runpy; runpy.run_path({str(tmp_path / 'job.py')!r}, init_globals={{'snakemake': {sm!r}}})"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stdout, stderr = proc.communicate(timeout=300)
    info = json.loads(out.read_text()) if out.exists() else None
    return proc, stdout, stderr, info


def test_client_imports_only_the_standard_library():
    code = "import sys, svmfs.worker; print(sorted(m for m in ('numpy', 'sklearn', 'pandas', 'scipy', 'snakemake') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_registry_imports_no_method_or_solver_stack():
    code = (
        "import sys, svmfs.methods.registry as r; r.get_method('mm_fs'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('cvxpy', 'pyomo', 'cyipopt', 'highspy', 'sklearn', 'matplotlib')"
        " or m.startswith('svmfs.methods.') and m != 'svmfs.methods.registry'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_job_runs_in_a_forked_child_with_its_stdio_cwd_env_and_status(tmp_path, env):
    env = {**env, "JOB_MARKER": "m1"}
    proc, stdout, _, first = run_job(tmp_path, env)
    assert proc.returncode == 0 and "job says hello" in stdout  # the child wrote to the client's stdout
    assert first["pid"] != proc.pid and first["child"] == "1" and first["numpy"]  # warm: numpy preloaded
    assert first["cwd"] == str(tmp_path) and first["marker"] == "m1"
    proc, _, _, second = run_job(tmp_path, {**env, "JOB_MARKER": "m2"}, code=3)
    assert proc.returncode == 3 and second["marker"] == "m2"
    assert second["ppid"] == first["ppid"]  # the same server forked both


def test_a_crashing_job_fails_alone(tmp_path, env):
    proc, _, stderr, info = run_job(tmp_path, env, crash=True)
    assert proc.returncode != 0 and "killed by signal" in stderr and info is not None
    proc, _, _, after = run_job(tmp_path, env)
    assert proc.returncode == 0 and after["ppid"] == info["ppid"]  # the server lives on


def test_an_edited_module_gets_a_fresh_server(tmp_path, env):
    _, _, _, first = run_job(tmp_path, env)
    module = Path(env["PYTHONPATH"]) / "svmfs" / "protocol" / "select_job.py"
    module.write_text(module.read_text() + "\n# an edit\n")
    proc, _, _, second = run_job(tmp_path, env)
    assert proc.returncode == 0 and second["ppid"] != first["ppid"] and second["child"] == "1"


def test_disabled_worker_runs_the_job_in_its_own_process(tmp_path, env):
    proc, _, _, info = run_job(tmp_path, {**env, "SVMFS_WORKER": "0"})
    assert proc.returncode == 0 and info["pid"] == proc.pid and info["child"] is None
