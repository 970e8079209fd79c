"""Issue 35 "reproduce check passes on each": every campaign committed under reproduction/ rerun from this tree
on its seeded sample (5 select jobs; 2 of a departure campaign, ``protocol.measures``), drawn among the jobs
whose committed record took at most --max-job-seconds, exactly as ``reproduce check`` does, and each new
record compared with the committed one (:func:`svmfs.reproduce.compare.compare_jobs`).

CI (``pytest -m e2e``) checks one job of each measured campaign to stay inside its time; this is the whole
check, written to ``benchmarks/committed_check.csv`` (one row per campaign) for RESULTS.md. 60 min 30 s on
this project's 2 cores on 2026-11-28 (SLURM controller up); the shared data served on 127.0.0.1 (``--mirror``).

    python benchmarks/bench_committed_check.py --mirror http://127.0.0.1:8765/ [--only NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

from svmfs.reproduce.check import DEPARTURE_JOBS, MEASURED_JOBS, check_jobs, committed_campaigns, is_departure, tally  # noqa: E402
from svmfs.results.record import git_sha  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", required=True, help="the local mirror of ../shared/data")
    ap.add_argument("--max-job-seconds", type=float, default=60.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", nargs="*", help="these campaigns only (default: all)")
    ap.add_argument("--out", type=Path, default=HERE / "committed_check.csv")
    args = ap.parse_args()
    rows = []
    for name in args.only or committed_campaigns(ROOT):
        lines: list[str] = []
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="svmfs-bench-check-") as tmp:
            compared = check_jobs(ROOT / "reproduction" / name, k=DEPARTURE_JOBS if is_departure(ROOT / "reproduction" / name) else MEASURED_JOBS,
                                  seed=args.seed, mirror=args.mirror, workdir=Path(tmp) / "w", out=lines.append, max_job_s=args.max_job_seconds)  # fmt: skip
        n = tally(compared)
        rc = 1 if n["differ"] else 0
        rows.append({"campaign": name, **n, "passed": rc == 0, "wall_s": round(time.perf_counter() - t0, 1)})
        print(f"{name}: {'passed' if rc == 0 else 'FAILED'} ({rows[-1]['wall_s']} s)", flush=True)
        if rc:
            print("\n".join(lines), flush=True)
    table = pd.DataFrame(rows)
    table["tree"] = git_sha(ROOT)
    if not args.only:
        tmp = args.out.with_suffix(".csv.tmp")
        table.to_csv(tmp, index=False)
        tmp.replace(args.out)
    print(table.to_string(index=False))
    print(f"{int(table['passed'].sum())} of {len(table)} campaigns passed; {table['wall_s'].sum():.0f} s")
    return 0 if table["passed"].all() else 1


if __name__ == "__main__":
    raise SystemExit(main())
