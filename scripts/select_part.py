"""Rule select_part: one inner fold of a select job run apart (``methods.<name>.split_inner_folds``), or one
block of the grid on one inner fold (``methods.<name>.split_grid``), or the ``test_tuned`` audit's candidates of the
grid or of one block (``methods.<name>.split_audit``: ``audit``, ``audit-grid-<b>``), or the ``global_scaling``
audit's refit (``methods.<name>.split_global_scaling``: ``global-scaling``).

What each part computes is the library's (:func:`svmfs.protocol.select_job.run_part`, by the part's name), so
that a new kind of part leaves this script, and so the restorability of the parts already made, as it is. An
inner fold's part: steps 1-3 of the select job on that inner fold only, the grid or the part's block of it
fitted and scored on it; the select job merges every part's scores and chooses as it would alone. The part
carries its job's ``config_hash``, the code's ``git_sha`` and the fingerprint of the code it ran (``code_hash``),
as a record does, so that ``reproduce restore``
can tell whether an exported part still holds.
"""

from pathlib import Path

from svmfs.worker import delegate

delegate(snakemake, __file__, modules=[snakemake.params.method_module])

import json  # noqa: E402
import time  # noqa: E402

from svmfs.data.canonical import load_dataset  # noqa: E402
from svmfs.jobs import job_context  # noqa: E402
from svmfs.protocol.select_job import run_part  # noqa: E402
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
    t0 = time.perf_counter()
    part, n_rows = run_part(ds.X, ds.y, fold, w.method, p.method_cfg, p.campaign, p.seed, w.part, setting=p.setting, fixed_size=fixed_size)
    elapsed = time.perf_counter() - t0
    log.info("%s: %d candidates scored in %.3f s", w.part, n_rows, elapsed)
    part.update(time_s=elapsed, config_hash=config_hash(p.job_config), git_sha=sha, code_hash=p.code)
    atomic_write_json(snakemake.output[0], part)
