"""Rule initial_solution: Algorithm 1's (C*, gamma_ini) for one (dataset, outer fold), read by every select
job of a method with ``initial_solution: shared`` (svmfs.protocol.initial_solution)."""

import json
from pathlib import Path

from svmfs.data.canonical import load_dataset
from svmfs.jobs import job_context
from svmfs.protocol.initial_solution import tune_initial_solution
from svmfs.results.io import atomic_write_text

with job_context(snakemake.log[0], snakemake.threads) as log:
    w, p = snakemake.wildcards, snakemake.params
    ds = load_dataset(snakemake.input.npz, snakemake.input.meta)
    fold = json.loads(Path(snakemake.input.splits).read_text())["folds"][int(w.fold)]
    out = tune_initial_solution(ds.X, ds.y, fold, p.normalization, p.n_folds, p.seed, p.ties, p.libsvm_tol)
    log.info("C* = %g, gamma_ini = %g, inner accuracy %.4f", out["C"], out["gamma_ini"], out["cv_accuracy"])
    atomic_write_text(snakemake.output[0], json.dumps(out, indent=1) + "\n")
