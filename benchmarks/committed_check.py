"""Every campaign committed under reproduction/ rerun from this tree on its seeded sample, each new record compared
with the committed one.

5 select jobs of a campaign (2 of a departure campaign, ``protocol.measures``), drawn among the jobs whose
committed record took at most ``max_job_seconds``, exactly as ``python -m svmfs.reproduce check`` draws them, and
compared by :func:`svmfs.reproduce.compare.compare_jobs` (every deterministic field; a solver path or a float's
last digits are counted apart). CI (``pytest -m e2e``) checks one job of each measured campaign to stay inside its
time; this is the whole check. The shared data are served on 127.0.0.1 for the run (or ``--mirror URL``).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks.common import ROOT, shared_mirror

QUESTION = "Does every committed campaign's sample of select jobs, run again from this tree, give its committed records?"
DATA = "Every folder of reproduction/: 5 seeded select jobs each (2 of a departure campaign) among those of at most 60 s, seed 1 (quick: 1 job each)"
TOPIC = "reproduction evidence"
RESULTS = "committed_check"
OPTIONS = {"mirror": ("", "the data mirror's URL (default: ../shared/data served on 127.0.0.1)"),
           "max_job_seconds": (60.0, "draw among the jobs whose record took at most this"),
           "seed": (1, "the draw's seed"),
           "only": ("", "comma-separated campaigns (default: every committed one)")}  # fmt: skip


def run(case: str = "", quick: bool = False, mirror: str = "", max_job_seconds: float = 60.0, seed: int = 1, only: str = "") -> list[dict]:
    from svmfs.reproduce.check import DEPARTURE_JOBS, MEASURED_JOBS, check_jobs, committed_campaigns, is_departure, tally

    names = [n for n in only.split(",") if n] or committed_campaigns(ROOT)
    rows = []
    with shared_mirror() as served:
        for name in names:
            folder = ROOT / "reproduction" / name
            k = 1 if quick else (DEPARTURE_JOBS if is_departure(folder) else MEASURED_JOBS)
            t0 = time.perf_counter()
            with tempfile.TemporaryDirectory(prefix="svmfs-bench-check-") as tmp:
                compared = check_jobs(folder, k=k, seed=seed, mirror=mirror or served, workdir=Path(tmp) / "w",
                                      out=lambda _line: None, max_job_s=max_job_seconds)  # fmt: skip
            n = tally(compared)
            rows.append({"campaign": name, **n, "passed": not n["differ"], "wall_s": round(time.perf_counter() - t0, 1)})
    return rows


def table(case: str, rows: list[dict]) -> list[dict]:
    """RESULTS.md: the totals, then the campaigns that did not pass (all of them pass: the totals alone)."""
    total = {"campaign": f"all {len(rows)} campaigns", "jobs": sum(int(r["jobs"]) for r in rows),
             "identical": sum(int(r["identical"]) for r in rows),
             "same_result_path_differs": sum(int(r["same_result_path_differs"]) for r in rows),
             "differ": sum(int(r["differ"]) for r in rows), "passed": sum(r["passed"] == "True" for r in rows),
             "wall_s": round(sum(float(r["wall_s"]) for r in rows), 1)}  # fmt: skip
    odd = [r for r in rows if r["passed"] != "True" or int(r["same_result_path_differs"])]
    slow = sorted(rows, key=lambda r: -float(r["wall_s"]))[:3]
    return [total] + [{k: r[k] for k in total} for r in odd + [s for s in slow if s not in odd]]
