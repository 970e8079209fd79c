"""Committed reproductions: export a finished campaign, index them, check one by rerunning its jobs.

::

    python -m svmfs.reproduce export results/<campaign> reproduction/<name> --configfile A.yaml [B.yaml ...]
    python -m svmfs.reproduce index                      # REPRODUCTION.md from reproduction/*/
    python -m svmfs.reproduce check reproduction/<name> -k 5 --seed 1 [--mirror URL] [--stamp]
    python -m svmfs.reproduce check-all [reproduction/<name> ...] -k 1 --max-job-s 20 [--stamp]
    python -m svmfs.reproduce restore reproduction/<name> [--configfile A.yaml ...]
    python -m svmfs.reproduce rejudge [reproduction/<name> ...] [--check]

One module per command, each read from its command down to its helpers:

- :mod:`.export` copies what a reader needs into ``reproduction/<name>/``: the reproduction report, the
  tables (summary, statistics, reproduction, audits), the top-level figures as PNG, the merged
  ``records.parquet`` / ``records.csv`` (one row per select job, with its ``config_hash``), the merged
  campaign config (``config.yaml``) and ``provenance.json`` (git SHA, versions, hosts, job and wall
  times, the command).
- :mod:`.index` writes the repository's ``REPRODUCTION.md`` from the committed folders alone
  (deterministic).
- :mod:`.check` reruns k seeded-random select jobs of a committed campaign through the normal pipeline
  (Snakemake, in a scratch directory) and compares every deterministic field
  (:data:`svmfs.results.record.STABLE_COLUMNS`, as ``records.csv`` prints them) with the committed row
  (:mod:`.compare`).
- :mod:`.restore` writes the committed records back as select-job outputs of a fresh clone, only those
  whose job config hash still matches and whose code fingerprint is this tree's, or that of the export's last
  passing check (:mod:`.stamp`; see docs/reproduction.md, "Committed reproductions").
- :mod:`.rejudge` reruns the reproduction rule on a committed folder's own records and audits with this
  tree's published figures and verdict code, so a changed ``published.yaml`` (a figure, a ``tried``
  entry) reaches every export without rerunning a job; ``--check`` only reports folders whose verdicts
  are stale.

Shared parts: :mod:`.jobs` (the repository root, job keys and paths, the merged campaign config, a
Snakemake run), :mod:`.compare` (committed against rerun records), :mod:`.fingerprint` (the code a job runs, as
one hash: the rules' ``params: code`` and the records' ``code_hash``), :mod:`.stamp` (this tree's fingerprints
and ``checked.json``, which a passing ``check --stamp`` writes). :mod:`.cli` is the command line (``python -m svmfs.reproduce``).
"""
