"""An iFSA select job at two versions of the code: one greedy path per inner fold against one per fraction.

The job: ``run_select_job`` for ``ifsa`` as the offline ``catala_martin_text`` campaign runs it (its 16
alignment fractions 0.85..1, the unbalanced alignment, 3 inner folds, the linear final SVM over C = 10..1e4)
on a ``text_like`` stand-in corpus (3000 documents, 2000 words, 20 informative, 1:19; seed 1), a random
training side of 1000 documents (seed 0), 1 BLAS thread. Each version runs in its own process with
``PYTHONPATH=SRC``; every record field except the times must be equal between the versions (printed).

Usage: python benchmarks/bench_ifsa_path.py BEFORE_SRC AFTER_SRC
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMES = ("fit_time_s", "tune_time_s")

CHILD = r"""
import json, sys, time
import numpy as np
from threadpoolctl import threadpool_limits
threadpool_limits(1)
from svmfs.config import job_campaign_config, job_method_config, validate_schema
from svmfs.data.synthetic import text_like
from svmfs.protocol.select_job import run_select_job
from svmfs.yamlio import load_yaml_file

root = sys.argv[1]
cfg = load_yaml_file(root + "/config/campaigns/catala_martin_text.yaml")
cfg["datasets"] = {"standin": {"source": "text_like"}}
cfg["final_classifier"] = {"linear": {"C": [10.0, 100.0, 1000.0, 10000.0]}}
validate_schema(cfg)
X, y, rel = text_like(n=3000, V=2000, k=20, positive_fraction=0.05, seed=1)
perm = np.random.default_rng(0).permutation(len(y))
fold = {"fold": 0, "train": sorted(perm[:1000].tolist()), "test": sorted(perm[1000:].tolist())}
t0 = time.perf_counter()
rec = run_select_job(X, y, fold, "ifsa", job_method_config(cfg, "standin", "ifsa"),
                     job_campaign_config(cfg, "standin", "ifsa"), 1, setting={}, relevant=rel)
rec["job_wall_s"] = time.perf_counter() - t0
print(json.dumps(rec, default=str))
"""


def run(src: str) -> dict:
    env = {**os.environ, "PYTHONPATH": src, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT)], env=env, capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"PYTHONPATH={src}: exit {out.returncode}\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(before: str, after: str) -> None:
    with open("/proc/loadavg") as f:
        load0 = f.read().split()[0]
    t = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    b, a = run(before), run(after)
    with open("/proc/loadavg") as f:
        load1 = f.read().split()[0]
    differ = sorted(k for k in set(a) | set(b) if k not in TIMES + ("job_wall_s",) and a.get(k) != b.get(k))
    print(f"{t} UTC, 1-min load {load0} -> {load1}")
    print("| version | job wall | tuning | fit | selected | test accuracy | fraction |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, r in (("before (one path per fraction)", b), ("after (one path per inner fold)", a)):
        print(f"| {name} | {r['job_wall_s']:.1f} s | {r['tune_time_s']:.1f} s | {r['fit_time_s']:.1f} s | {r['n_selected']} | "
              f"{r['test_accuracy']:.4f} | {r['selector_params'].get('alignment_fraction')} |")
    print(f"speed-up of the job: {b['job_wall_s'] / a['job_wall_s']:.1f}x; record fields that differ (times aside): {differ or 'none'}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
