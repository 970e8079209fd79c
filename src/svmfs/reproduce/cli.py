"""The command line of :mod:`svmfs.reproduce`: ``python -m svmfs.reproduce <command> ...``, one subcommand
per module (export, index, check and check-all, rejudge, restore)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import __doc__ as PACKAGE_DOC
from .check import check, check_all
from .export import export
from .index import index_markdown
from .jobs import ROOT
from .rejudge import rejudge_folders
from .restore import restore


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m svmfs.reproduce", description=PACKAGE_DOC.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    e = sub.add_parser("export", help="copy a finished campaign's results into reproduction/<name>/")
    e.add_argument("results", type=Path)
    e.add_argument("dest", type=Path)
    e.add_argument("--configfile", nargs="+", required=True, help="the campaign files of the run, in order")
    e.add_argument("--command", help="the command that ran the campaign (default: the usual snakemake call)")
    e.add_argument("--earlier", type=Path, help="the (partial) export the run's restored jobs came from, whose times are kept for them (default: dest)")
    i = sub.add_parser("index", help="write REPRODUCTION.md from reproduction/*/")
    i.add_argument("--root", type=Path, default=ROOT / "reproduction")
    i.add_argument("--out", type=Path, default=ROOT / "REPRODUCTION.md")
    c = sub.add_parser("check", help="rerun k random select jobs of a committed campaign and compare")
    c.add_argument("folder", type=Path)
    c.add_argument("-k", type=int, default=5)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--mirror", default=os.environ.get("SVMFS_MIRROR") or None, help="dataset mirror (default $SVMFS_MIRROR)")
    c.add_argument("--cores", type=int, default=2)
    c.add_argument("--max-job-seconds", type=float, help="draw only among jobs whose record took at most this long (fit + tuning + audit)")
    c.add_argument("--workdir", type=Path, help="keep the rerun here (default: a temporary folder, removed)")
    c.add_argument("--raw-dir", help="downloaded sources (default: the clone's data/raw)")
    c.add_argument("--stamp", action="store_true", help="on a pass, write <folder>/checked.json (the code it ran), under which restore reuses the records")
    ca = sub.add_parser("check-all", help="check every committed campaign (or those named), one after the other")
    ca.add_argument("folders", type=Path, nargs="*", help="default: every folder of reproduction/ with records")
    ca.add_argument("-k", type=int, default=1)
    ca.add_argument("--seed", type=int, default=1)
    ca.add_argument("--mirror", default=os.environ.get("SVMFS_MIRROR") or None, help="dataset mirror (default $SVMFS_MIRROR)")
    ca.add_argument("--cores", type=int, default=2)
    ca.add_argument("--max-job-s", type=float, default=20.0, help="draw only among jobs whose record took at most this long")
    ca.add_argument("--raw-dir", help="downloaded sources (default: the clone's data/raw)")
    ca.add_argument("--stamp", action="store_true", help="write checked.json in each folder that passes")
    j = sub.add_parser("rejudge", help="rerun the reproduction rule on committed campaigns' own records")
    j.add_argument("folders", type=Path, nargs="*", help="default: every folder of reproduction/ with verdicts")
    j.add_argument("--check", action="store_true", help="write nothing; exit 1 if a folder's verdicts are stale")
    r = sub.add_parser("restore", help="write a committed campaign's still-valid records back into results/<campaign>")
    r.add_argument("folder", type=Path)
    r.add_argument("--configfile", nargs="+", help="the campaign files to resume with (default: the export's config.yaml)")
    r.add_argument("--directory", type=Path, default=Path.cwd(), help="the workflow's working directory (default: here)")
    r.add_argument("--mirror", default=os.environ.get("SVMFS_MIRROR") or None)
    a = ap.parse_args(argv)
    if a.cmd == "export":
        files = export(a.results, a.dest, a.configfile, a.command, a.earlier)
        size = sum(f.stat().st_size for f in files)
        print(f"exported {len(files)} files ({size / 2**20:.2f} MB) to {a.dest}")
        return 0
    if a.cmd == "index":
        a.out.write_text(index_markdown(a.root))
        print(f"wrote {a.out}")
        return 0
    if a.cmd == "rejudge":
        return rejudge_folders(a.folders, a.check)
    if a.cmd == "check":
        return check(a.folder, a.k, a.seed, mirror=a.mirror, workdir=a.workdir, cores=a.cores, raw_dir=a.raw_dir,
                     max_job_s=a.max_job_seconds, stamp=a.stamp)  # fmt: skip
    if a.cmd == "check-all":
        return check_all(a.folders, a.k, a.seed, max_job_s=a.max_job_s, stamp=a.stamp, mirror=a.mirror, cores=a.cores,
                         raw_dir=a.raw_dir)  # fmt: skip
    return restore(a.folder, a.configfile, a.directory, a.mirror)


if __name__ == "__main__":
    sys.exit(main())
