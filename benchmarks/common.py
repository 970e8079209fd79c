"""What several benchmarks share: the machine's description, timing, a 95 % t interval, the project's data
(leukemia, a jimenez2021 outer fold's training side) and a scratch folder with a campaign's datasets and splits
built through the workflow.

Nothing here measures; the benchmark modules beside it do, and ``python -m benchmarks`` runs them.
"""

from __future__ import annotations

import contextlib
import math
import os
import platform
import subprocess
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
RESULTS = Path(__file__).resolve().parent / "results"
#: scratch space (datasets and splits a benchmark builds through the workflow); not committed
WORK = Path(os.environ.get("SVMFS_BENCH_WORK", ROOT / "benchmarks" / ".work"))


# ---------------------------------------------------------------- machine and provenance
def cpu_model() -> str:
    """The CPU's model name as /proc/cpuinfo gives it (else ``platform.processor()``)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine() -> dict:
    """CPU model, logical cores, memory and the 1/5/15-minute load average now."""
    mem_gb = None
    with contextlib.suppress(OSError, ValueError, IndexError):
        kb = next(ln for ln in Path("/proc/meminfo").read_text().splitlines() if ln.startswith("MemTotal"))
        mem_gb = round(int(kb.split()[1]) / 1024**2, 1)
    load = [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
    return {"cpu": cpu_model(), "cores": os.cpu_count(), "memory_gb": mem_gb, "load_average": load,
            "python": platform.python_version()}  # fmt: skip


def git_sha(root: Path = ROOT) -> str:
    """The checked-out commit, with ``+dirty`` when tracked files outside benchmarks/results differ from it."""
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
        st = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!benchmarks/results"],
                            cwd=root, capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return sha + ("+dirty" if st else "")


def package_versions(*names: str) -> dict:
    """Installed versions of the named distributions (those not installed are left out)."""
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for n in names:
        with contextlib.suppress(PackageNotFoundError):
            out[n] = version(n)
    return out


# ---------------------------------------------------------------- timing and statistics
def timed(f, *args, **kwargs):
    """``(result, wall seconds, CPU seconds of this process)`` of one call."""
    w, c = time.perf_counter(), time.process_time()
    out = f(*args, **kwargs)
    return out, time.perf_counter() - w, time.process_time() - c


def best_of(f, repeat: int = 3):
    """``(best wall seconds, result of the last call)`` over ``repeat`` calls of ``f()``."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return min(times), out


def ci(values) -> tuple[float, float, float]:
    """Mean and 95 % t interval of ``values`` (the interval collapses to the mean for one value)."""
    from scipy import stats

    v = np.asarray(values, dtype=float)
    if len(v) < 2:
        return float(v.mean()), float(v.mean()), float(v.mean())
    half = float(stats.t.ppf(0.975, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)))
    return float(v.mean()), float(v.mean()) - half, float(v.mean()) + half


@contextlib.contextmanager
def blas_threads(n: int | None):
    """Limit BLAS / OpenMP to ``n`` threads inside the block (``None``: no limit), as a select job with
    ``threads: 1`` runs."""
    if n is None:
        yield
        return
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=n):
        yield


# ---------------------------------------------------------------- data
def leukemia():
    """Golub's leukemia, train + test merged (72 x 7129), z-scored, labels AML = 1, ALL = -1, and its label;
    a synthetic 72 x 7129 problem (MIT 9.520 Example 1) when ../shared/data is absent."""
    import pandas as pd
    from sklearn.preprocessing import StandardScaler

    if not (SHARED / "golub-train.csv").exists():
        from svmfs.data.synthetic import mit_example1

        X, y, _ = mit_example1(n=72, p=7129, k0=10, rho=0.2, seed=0)
        return X, y, "synthetic 72 x 7129"
    df = pd.concat([pd.read_csv(SHARED / "golub-train.csv"), pd.read_csv(SHARED / "golub-test.csv")])
    y = np.where(df["labels"] == "AML", 1, -1)
    X = StandardScaler().fit_transform(df.drop(columns="labels").to_numpy(float))
    return X, y, "leukemia (Golub) 72 x 7129, z-scored"


def dataset(name: str):
    """The registry's dataset ``name`` read from ../shared/data by its reader (WDBC: scikit-learn's copy)."""
    from svmfs.data.embedded import sklearn_breast_cancer
    from svmfs.data.formats import read_download
    from svmfs.data.registry import load_registry

    if name == "wdbc":
        return sklearn_breast_cancer("wdbc")
    return read_download(name, load_registry(ROOT / "config" / "datasets.yaml")[name], SHARED)


def zscore(X):
    """Columns centred and scaled to unit variance (a constant column is left centred)."""
    sd = X.std(0)
    return (X - X.mean(0)) / np.where(sd > 0, sd, 1.0)


def outer_fold(name: str, fold_index=None, n_train=None):
    """``(X, y in {-1, 1}, fold)`` of one jimenez2021 outer fold: the registry's reader (WDBC: scikit-learn's
    copy), the campaign's stratified 10-fold splits and seed. ``fold_index`` None: the first fold with
    ``n_train`` training rows."""
    from svmfs.protocol.seeds import splits_seed
    from svmfs.protocol.splits import make_splits

    ds = dataset(name)
    y = np.where(ds.y == ds.y.max(), 1.0, -1.0)
    folds = make_splits(ds.y, {"n_instances": 10, "test_fraction": 0.1, "stratify": True}, splits_seed(20210601, name))
    if fold_index is None:
        fold = next(f for f in folds if len(f["train"]) == n_train)
    else:
        fold = folds[fold_index]
    return ds.X.astype(float), y, fold


def train_side(name: str, fold_index=None, n_train=None):
    """``(X, y, fold index)``: a jimenez2021 outer fold's training side, min-max scaled to [-1, 1] on that
    side (the campaign's scaling, sec. 4.2)."""
    from svmfs.protocol.normalize import make_normalizer

    X, y, fold = outer_fold(name, fold_index, n_train)
    tr = np.asarray(fold["train"])
    return make_normalizer("minmax_pm1").fit_transform(X[tr]), y[tr], fold["fold"]


@contextlib.contextmanager
def shared_mirror():
    """../shared/data served on 127.0.0.1 (a free port) for the block: the download rule's mirror; yields its URL."""
    import http.server
    import threading
    from functools import partial

    handler = partial(http.server.SimpleHTTPRequestHandler, directory=str(SHARED))
    handler.log_message = lambda *a, **k: None
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/"
    finally:
        srv.shutdown()
        srv.server_close()


def campaign_data(folder: Path, datasets: list[str], work: Path | None = None) -> Path:
    """The results folder of the committed campaign ``folder`` (``reproduction/<campaign>``) with the datasets
    and outer splits of ``datasets`` built through the workflow (once) from its ``config.yaml``, in a scratch
    folder under :data:`WORK`; returns ``<scratch>/results/<campaign>``."""
    import yaml

    from svmfs.config import campaign_datasets
    from svmfs.reproduce.jobs import run_workflow
    from svmfs.yamlio import load_yaml_file

    cfg = dict(load_yaml_file(folder / "config.yaml"))
    work = work or WORK / folder.name
    cfg["results_dir"] = str(work / "results")
    cfg["raw_dir"] = str(ROOT / "data" / "raw")
    groups = {n: e["group"] for n, e in campaign_datasets(cfg).items()}  # a replicate <name>-r<k> is in group <name>
    cfg["datasets"] = {g: cfg["datasets"][g] for g in sorted({groups[d] for d in datasets})}
    res = work / "results" / cfg["campaign"]
    targets = [str(res / k / f"{d}.{e}") for d in datasets for k, e in (("datasets", "npz"), ("splits", "json"))]
    if not all(Path(t).exists() for t in targets):
        work.mkdir(parents=True, exist_ok=True)
        with shared_mirror() as url:
            (work / "config.yaml").write_text(yaml.safe_dump({**cfg, "mirror": url}, sort_keys=False))
            run_workflow(work, work / "config.yaml", *targets, cores=1, failure="bench: the data rules failed")
    return res


def with_intervals(rows: list[dict]) -> list[dict]:
    """Rows with each ``x`` that has ``x_lo`` / ``x_hi`` beside it shown as one cell "mean [lo, hi]" (for a
    benchmark's ``table``)."""
    out = []
    for r in rows:
        row = {}
        for k, v in r.items():
            if k.endswith(("_lo", "_hi")) and k[:-3] in r:
                continue
            lo, hi = r.get(f"{k}_lo"), r.get(f"{k}_hi")
            row[k] = v if lo in (None, "") or v in (None, "") else f"{float(v):.2f} [{float(lo):.2f}, {float(hi):.2f}]"
        out.append(row)
    return out
