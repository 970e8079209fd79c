"""Rule select_part: one inner fold of a select job run apart (``methods.<name>.split_inner_folds``), or one
block of the grid on one inner fold (``methods.<name>.split_grid``), or the ``test_tuned`` audit's candidates of the
grid or of one block (``methods.<name>.split_audit``: ``audit``, ``audit-grid-<b>``).

Steps 1-3 of the select job on that inner fold only (:func:`svmfs.protocol.select_job.run_inner_folds`): the
grid, or the part's block of it, fitted and scored on it; the select job merges every part's scores and
chooses as it would alone. The part carries its job's ``config_hash`` and the code's ``git_sha``, as a record
does, so that ``reproduce restore`` can tell whether an exported part still holds.
"""

from pathlib import Path

from svmfs.worker import delegate

delegate(snakemake, __file__, modules=[f"svmfs.methods.{Path(snakemake.input.code).stem}"])

import json  # noqa: E402
import time  # noqa: E402

from svmfs.config import grid_block  # noqa: E402
from svmfs.data.canonical import load_dataset  # noqa: E402
from svmfs.jobs import job_context  # noqa: E402
from svmfs.protocol.select_job import run_audit_part, run_inner_folds  # noqa: E402
from svmfs.results.io import atomic_write_json  # noqa: E402
from svmfs.results.record import config_hash, git_sha  # noqa: E402

with job_context(snakemake.log[0], snakemake.threads) as log:
    w, p = snakemake.wildcards, snakemake.params
    sha = git_sha(p.workdir)  # before the fit: the code the part starts with
    ds = load_dataset(snakemake.input.npz, snakemake.input.meta)
    fold = json.loads(Path(snakemake.input.splits).read_text())["folds"][int(w.fold)]
    fixed_size = None
    if snakemake.input.get("match"):
        fixed_size = json.loads(Path(snakemake.input.match).read_text())["n_selected"]
    inner, block = grid_block(p.method_cfg, w.part)
    t0 = time.perf_counter()
    common = dict(setting=p.setting, fixed_size=fixed_size, grid_block=block)
    if inner is None:  # split_audit: the test_tuned audit's candidates
        rows = run_audit_part(ds.X, ds.y, fold, w.method, p.method_cfg, p.campaign, p.seed, **common)
        part = {"audit_candidates": rows}
    else:
        scores = run_inner_folds(ds.X, ds.y, fold, w.method, p.method_cfg, p.campaign, p.seed, [inner], **common)
        part, rows = {"inner_fold": inner, "scores": scores}, scores[inner]
    elapsed = time.perf_counter() - t0
    log.info("%s: %d candidates scored in %.3f s", w.part, len(rows), elapsed)
    part.update(time_s=elapsed, config_hash=config_hash(p.job_config), git_sha=sha)
    if block is not None:
        part["grid_block"] = block
    atomic_write_json(snakemake.output[0], part)
