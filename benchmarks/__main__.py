"""The benchmark runner.

    python -m benchmarks list                       # each benchmark: topic, cases, question
    python -m benchmarks run NAME [CASE] [--quick] [--OPTION VALUE ...]
    python -m benchmarks report [--check]           # benchmarks/RESULTS.md from benchmarks/results/

``run`` measures one benchmark (every case of it without CASE) and writes, per case, its rows to
``benchmarks/results/<RESULTS>[-<case>].csv`` and beside them a JSON of provenance: the command, the UTC time,
the git commit, the machine (CPU model, cores, load average at the start), the size that ran (``quick`` or
``full``) and the benchmark's own notes. ``report`` writes RESULTS.md from those files and the modules'
declarations alone, by topic; it is deterministic (``--check`` exits 1 when RESULTS.md differs from it).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import time
from pathlib import Path

from benchmarks import TOPICS, cases, load, names, stem
from benchmarks.common import RESULTS, git_sha, machine, package_versions

RESULTS_MD = Path(__file__).resolve().parent / "RESULTS.md"
MAX_ROWS = 5  # rows of a table shown in RESULTS.md; the CSV holds them all
PACKAGES = ("numpy", "scipy", "scikit-learn", "highspy", "cyipopt", "snakemake")


def command_of(name: str, case: str, quick: bool, options: dict) -> str:
    parts = ["python -m benchmarks run", name] + ([case] if case else []) + (["--quick"] if quick else [])
    for k, v in options.items():
        parts += [f"--{k.replace('_', '-')}", str(v)]
    return " ".join(parts)


def write_results(module, case: str, rows: list[dict], meta: dict, results: Path = RESULTS) -> Path:
    """Write ``rows`` (CSV, columns in first-seen order) and ``meta`` (JSON) for ``case`` of ``module``."""
    results.mkdir(parents=True, exist_ok=True)
    base = results / stem(module, case)
    columns: list[str] = []
    for r in rows:
        columns += [k for k in r if k not in columns]
    with open(base.with_suffix(".csv"), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: _cell(r.get(k)) for k in columns})
    base.with_suffix(".json").write_text(json.dumps(meta, indent=1, sort_keys=False) + "\n")
    return base.with_suffix(".csv")


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, float):  # numpy's float64 too, written as a plain float
        return repr(float(v)) if math.isfinite(v) else str(float(v))
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):  # other numpy scalars
        return v.item()
    if isinstance(v, (list, tuple, dict)):
        return json.dumps(v)
    return v


def cmd_list(_args) -> int:
    for name in names():
        m = load(name)
        print(f"{name}  [{m.TOPIC}]  {m.QUESTION}")
        if getattr(m, "CASES", None):
            for c, d in cases(m).items():
                print(f"    {c}: {d['question']}")
    return 0


def _options(module, argv: list[str]) -> tuple[dict, list[str], dict]:
    decl = getattr(module, "OPTIONS", {})
    ap = argparse.ArgumentParser(prog=f"python -m benchmarks run {module.__name__.split('.')[-1]}", add_help=False)
    for k, (default, help_) in decl.items():
        kind = type(default) if default is not None and not isinstance(default, bool) else str
        ap.add_argument(f"--{k.replace('_', '-')}", dest=k, default=default, type=kind, help=help_)
    ns, rest = ap.parse_known_args(argv)
    given = {k: v for k, v in vars(ns).items() if v != decl[k][0]}
    return {**{k: d for k, (d, _) in decl.items()}, **vars(ns)}, rest, given


def cmd_run(args) -> int:
    module = load(args.name)
    opts, rest, given = _options(module, args.rest)
    if rest:
        raise SystemExit(f"unknown arguments {rest}; options of {args.name}: {sorted(getattr(module, 'OPTIONS', {}))}")
    todo = [args.case] if args.case else list(cases(module))
    for case in todo:
        if case not in cases(module):
            raise SystemExit(f"{args.name} has no case {case!r}; its cases: {list(cases(module))}")
        meta = {"benchmark": args.name, "case": case, "command": command_of(args.name, case, args.quick, given),
                "size": "quick" if args.quick else "full", "options": opts,
                "started_utc": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()), "git_sha": git_sha(),
                "machine": machine(), "packages": package_versions(*PACKAGES)}  # fmt: skip
        print(f"[benchmarks] {meta['command']} (load {meta['machine']['load_average']})", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        out = module.run(case=case, quick=args.quick, **opts)
        rows, notes = (out["rows"], out.get("notes", {})) if isinstance(out, dict) else (out, {})
        meta["wall_s"] = round(time.perf_counter() - t0, 1)
        meta["load_average_end"] = machine()["load_average"]
        meta["notes"] = notes
        path = write_results(module, case, rows, meta)
        print(f"[benchmarks] {len(rows)} rows -> {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------- report
def _fmt(v: str) -> str:
    """A CSV cell for the report: floats to 4 significant digits, everything else as written."""
    if v == "" or not any(ch.isdigit() for ch in v):
        return v.replace("|", "\\|")
    try:
        x = float(v)
    except ValueError:
        return v.replace("|", "\\|")
    if x.is_integer() and "e" not in v.lower() and "." not in v:
        return v
    if abs(x) >= 1000:
        return f"{x:.0f}"
    return f"{x:.4g}"


def table_md(rows: list[dict], max_rows: int = MAX_ROWS) -> list[str]:
    if not rows:
        return ["(no rows)"]
    cols = list(rows[0])
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows[:max_rows]:
        out.append("| " + " | ".join(_fmt(str(r.get(c, ""))) for c in cols) + " |")
    if len(rows) > max_rows:
        out.append(f"| ({len(rows) - max_rows} more rows in the CSV) |" + " |" * (len(cols) - 1))
    return out


def provenance_md(meta: dict) -> str:
    m = meta.get("machine", {})
    load_ = (m.get("load_average") or ["?"])[0]
    when = meta.get("started_utc", "?")[:16]
    sha = meta.get("git_sha", "?")
    sha = sha[:10] + ("+dirty" if sha.endswith("+dirty") else "")
    text = (f"Ran {when} UTC at `{sha}`, {meta.get('size', '?')} size, {m.get('cpu', '?')}, {m.get('cores', '?')} cores, "
            f"load {load_} at the start (shared machine: timings are noisy)")  # fmt: skip
    if meta.get("wall_s") is not None:
        text += f", {meta['wall_s']:.0f} s"
    conv = meta.get("converted_from")
    if conv:
        text = (f"Converted once from `{conv['file']}`, written by `{conv['command']}` at `{conv['commit'][:10]}` "
                f"({conv.get('date', '?')}; {conv.get('machine', 'the machine is not recorded')})")  # fmt: skip
    return text + "."


def report_text(results: Path = RESULTS) -> str:
    lines = ["# Benchmark results", "",
             "Generated by `python -m benchmarks report` from `benchmarks/results/` (do not edit by hand). Each table answers",
             f"the question above it; the command under it reproduces it (`--quick`: the smaller size). At most {MAX_ROWS} rows shown (all of a table a benchmark keeps whole); the CSV holds all.", ""]  # fmt: skip
    mods = [load(n) for n in names()]
    for topic in TOPICS:
        lines += [f"## {topic[0].upper()}{topic[1:]}", ""]
        for m in (m for m in mods if m.TOPIC == topic):
            name = m.__name__.split(".")[-1]
            for case, decl in cases(m).items():
                base = results / stem(m, case)
                lines.append(f"### {decl['question']}")
                if not base.with_suffix(".json").exists():
                    lines += ["", f"Data: {decl['data']}. Not run yet: `{command_of(name, case, False, {})}`.", ""]
                    continue
                meta = json.loads(base.with_suffix(".json").read_text())
                with open(base.with_suffix(".csv"), newline="") as fh:
                    rows = list(csv.DictReader(fh))
                if hasattr(m, "table"):
                    rows = m.table(case, rows)
                notes = meta.get("notes") or {}
                text = f"Data: {decl['data']}. "
                if notes:
                    text += "; ".join(f"{k}: {v}" for k, v in notes.items()) + ". "
                text += f"`{meta['command']}` -> `benchmarks/results/{base.name}.csv`. {provenance_md(meta)}"
                lines += table_md(rows, len(rows) if getattr(m, "SHOW_ALL_ROWS", False) else MAX_ROWS) + ["", text, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def cmd_report(args) -> int:
    text = report_text()
    if args.check:
        same = RESULTS_MD.exists() and RESULTS_MD.read_text() == text
        print("RESULTS.md is up to date" if same else "RESULTS.md differs from `python -m benchmarks report`")
        return 0 if same else 1
    RESULTS_MD.write_text(text)
    print(f"{RESULTS_MD} ({text.count(chr(10))} lines)")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list", help="each benchmark, its topic, cases and question").set_defaults(f=cmd_list)
    r = sub.add_parser("run", help="run one benchmark (all its cases without CASE)")
    r.add_argument("name")
    r.add_argument("case", nargs="?", default=None)
    r.add_argument("--quick", action="store_true", help="the smaller size (minutes)")
    r.set_defaults(f=cmd_run)
    rep = sub.add_parser("report", help="write benchmarks/RESULTS.md from benchmarks/results/")
    rep.add_argument("--check", action="store_true", help="exit 1 if RESULTS.md differs from the report")
    rep.set_defaults(f=cmd_report)
    args, rest = ap.parse_known_args(argv)
    if args.cmd != "run" and rest:
        ap.error(f"unrecognized arguments: {' '.join(rest)}")
    args.rest = rest
    return args.f(args)


if __name__ == "__main__":
    sys.exit(main())
