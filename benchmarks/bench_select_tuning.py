"""A select job's inner-CV tuning at two versions of the code, on one MIT 9.520 Example 1 fold.

The job: ``run_select_job`` as the workflow runs it for the ``mit9520`` campaign (its C grid of 21 values
2^-10..2^10, the 14 sizes of SVM-RFE and 1-norm RFE, 5 inner folds, the linear final SVM tuned on the same
21 C, the ``test_tuned`` and ``global_scaling`` audits) on Example 1 (n = 100, p = 2000, k0 = 10, rho = 0.2,
seed 0), outer fold 0 of a stratified 5-fold split (seed 0), 1 BLAS thread, for svm_rfe, l1_rfe and l1_svm.
Each version runs in its own process with ``PYTHONPATH=SRC``; every record field except the times must be
equal between the versions (printed).

Usage: python benchmarks/bench_select_tuning.py BEFORE_SRC AFTER_SRC [METHOD ...]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("svm_rfe", "l1_rfe", "l1_svm")
TIMES = ("fit_time_s", "tune_time_s", "audit_test_tuned_time_s")

CHILD = r"""
import json, sys, time
from threadpoolctl import threadpool_limits
threadpool_limits(1)
from svmfs.config import job_campaign_config, job_method_config
from svmfs.data.synthetic import mit_example1
from svmfs.protocol.select_job import run_select_job
from svmfs.protocol.splits import make_splits
from svmfs.yamlio import load_yaml_file

root = sys.argv[1]
cfg = {**load_yaml_file(root + "/config/config.yaml"), **load_yaml_file(root + "/config/campaigns/mit9520.yaml")}
X, y, rel = mit_example1(n=100, p=2000, k0=10, rho=0.2, seed=0)
fold = make_splits(y, {"kind": "stratified_kfold", "n_splits": 5}, 0)[0]
out = {}
for m in sys.argv[2:]:
    w, c = time.perf_counter(), time.process_time()
    rec = run_select_job(X, y, fold, m, job_method_config(cfg, "ex1_rho02-r0", m), job_campaign_config(cfg, "ex1_rho02-r0", m),
                         seed=0, setting={}, relevant=rel)
    rec["job_wall_s"], rec["job_cpu_s"] = time.perf_counter() - w, time.process_time() - c
    out[m] = rec
print(json.dumps(out, default=str))
"""


def run(src: str, methods) -> dict:
    env = {**os.environ, "PYTHONPATH": src, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    res = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), *methods], env=env, capture_output=True, text=True)
    if res.returncode:
        raise SystemExit(f"PYTHONPATH={src}: {res.stderr}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(before: str, after: str, methods) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load {os.getloadavg()[0]:.1f}")
    recs = {"before": run(before, methods), "after": run(after, methods)}
    print(f"load {os.getloadavg()[0]:.1f}")
    print("| method | before: job wall / CPU | tuning | test_tuned audit | after: job wall / CPU | tuning | test_tuned audit | CPU ratio | same record |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for m in methods:
        b, a = recs["before"][m], recs["after"][m]
        skip = set(TIMES) | {"job_wall_s", "job_cpu_s"}
        same = lambda u, v: json.dumps(u, sort_keys=True, default=str) == json.dumps(v, sort_keys=True, default=str)  # NaN == NaN
        diff = sorted(k for k in set(a) | set(b) if k not in skip and not same(a.get(k), b.get(k)))
        print(f"| {m} | {b['job_wall_s']:.1f} / {b['job_cpu_s']:.1f} s | {b['tune_time_s']:.1f} s | {b.get('audit_test_tuned_time_s', 0):.1f} s "
              f"| {a['job_wall_s']:.1f} / {a['job_cpu_s']:.1f} s | {a['tune_time_s']:.1f} s | {a.get('audit_test_tuned_time_s', 0):.1f} s "
              f"| {b['job_cpu_s'] / a['job_cpu_s']:.1f}x | {'yes' if not diff else 'differs: ' + ', '.join(diff)} |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:] or METHODS)
