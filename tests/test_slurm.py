"""A tiny campaign through workflow/profiles/slurm on a real one-node SLURM (.ci/slurm/start_cluster.sh).

Skipped where sbatch is absent; SVMFS_REQUIRE_SLURM=1 (set by .ci/run) turns the skip into a failure.
Without a running controller the fixture starts the test cluster (root only) and stops what it started.
"""

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_workflow import ROOT, TINY, snakemake

pytestmark = [pytest.mark.workflow, pytest.mark.e2e]
REQUIRED = os.environ.get("SVMFS_REQUIRE_SLURM") == "1"
TABLES = ("summary.csv", "summary.md", "summary.tex")
#: TINY cut to one dataset and two methods (6 select jobs; every SLURM job starts a Snakemake of its own, so the
#: whole TINY took 4 min here): the select jobs are bundled into fewer, longer SLURM jobs
SLURM_CAMPAIGN = {
    **TINY,
    "campaign": "slurm",
    "datasets": {"mit_example1": {**TINY["datasets"]["mit_example1"], "replicates": 1}},
    "methods": {m: TINY["methods"][m] for m in ("fisher", "svm_rfe")},
}


def _unavailable(reason: str):
    if REQUIRED:
        pytest.fail(f"SLURM required (SVMFS_REQUIRE_SLURM=1) but {reason}")
    pytest.skip(reason)


def _controller_up() -> bool:
    proc = subprocess.run(["scontrol", "ping"], capture_output=True, text=True, timeout=30)
    return "UP" in proc.stdout


@pytest.fixture(scope="module")
def cluster():
    if shutil.which("sbatch") is None:
        _unavailable("sbatch not found (install SLURM, or run .ci/slurm/start_cluster.sh as root)")
    started = False
    if not _controller_up():
        if os.geteuid() != 0:
            _unavailable("no SLURM controller answers and starting the test cluster needs root")
        subprocess.run([str(ROOT / ".ci" / "slurm" / "start_cluster.sh")], check=True, timeout=300)
        started = True
    yield
    if started:
        subprocess.run([str(ROOT / ".ci" / "slurm" / "stop_cluster.sh")], timeout=120)


def run_slurm(workdir: Path, config: dict, *extra: str, background=False):
    workdir.mkdir(parents=True, exist_ok=True)
    import yaml

    (workdir / "campaign.yaml").write_text(yaml.safe_dump(config))
    cmd = [
        sys.executable, "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "-d", str(workdir),
        "--workflow-profile", str(ROOT / "workflow" / "profiles" / "slurm"),
        "--configfile", str(workdir / "campaign.yaml"), "--replace-workflow-config",
        # status every second, not the default 10 (a one-node test cluster answers at once)
        "--slurm-init-seconds-before-status-checks", "1", "--seconds-between-status-checks", "1",
        # the 6 select jobs in 2 bundles of 3 side by side (a bundle's members run in series, ~6 s each,
        # and the plugin's status checks come at 1, 12, 33, 64 s: one bundle of 6 is seen at 64 s, two of 3 at 33)
        "--group-components", "select_bundle=3", *extra,
    ]  # fmt: skip
    env = {**os.environ, "SVMFS_MIRROR": ""}
    log = open(workdir / "snakemake.out", "w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, text=True, env=env)
    if background:
        return proc
    try:
        rc = proc.wait(timeout=900)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise
    assert rc == 0, (workdir / "snakemake.out").read_text()[-6000:]
    return proc


def test_slurm_tables_are_byte_identical_to_local(cluster, tmp_path):
    run_slurm(tmp_path / "slurm", SLURM_CAMPAIGN)
    snakemake(tmp_path / "local", "--cores", "2", config=SLURM_CAMPAIGN)
    for name in TABLES:
        a = (tmp_path / "slurm" / "results" / "slurm" / "tables" / name).read_bytes()
        b = (tmp_path / "local" / "results" / "slurm" / "tables" / name).read_bytes()
        assert a == b, name
    out = (tmp_path / "slurm" / "snakemake.out").read_text()
    submitted = [line for line in out.splitlines() if "has been submitted with SLURM jobid" in line]
    n_select = 1 * 2 * 3  # datasets x methods x folds
    bundles = [line for line in submitted if "group_select_bundle" in line]
    assert 0 < len(bundles) < n_select  # the select jobs went to SLURM bundled


def test_cancelled_job_is_retried_and_the_run_completes(cluster, tmp_path):
    cfg = {**SLURM_CAMPAIGN, "campaign": "cancel"}
    proc = run_slurm(tmp_path, cfg, background=True)
    cancelled = None
    deadline = time.time() + 300
    while cancelled is None and time.time() < deadline and proc.poll() is None:
        out = subprocess.run(["squeue", "-h", "-t", "RUNNING", "-o", "%i"], capture_output=True, text=True).stdout.split()
        if out:
            cancelled = out[0]
            subprocess.run(["scancel", cancelled], check=True)
        time.sleep(0.5)
    assert cancelled is not None, "no running SLURM job seen to cancel"
    rc = proc.wait(timeout=900)
    text = (tmp_path / "snakemake.out").read_text()
    assert rc == 0, text[-6000:]
    # the cancellation was seen and the same Snakemake job (a group job's id, or a job's) submitted again
    submitted = re.findall(r"Job (\S+) has been submitted with SLURM jobid (\d+)", text)
    job = next((j for j, slurm_id in submitted if slurm_id == cancelled), None)
    assert job is not None, f"SLURM job {cancelled} was not one this run submitted"
    assert f"JOB {cancelled} ON" in text and "CANCELLED" in text, text[-6000:]
    assert [slurm_id for j, slurm_id in submitted if j == job][0] == cancelled and sum(j == job for j, _ in submitted) == 2
    assert (tmp_path / "results" / "cancel" / "tables" / "summary.csv").exists()
