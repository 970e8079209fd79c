"""The null-label rows of REPRODUCTION.md: where a paper-protocol campaign's protocol selects, scales or tunes
with the test rows, its accuracy on permuted labels beside the published number.

A committed campaign folder ``reproduction/<campaign>/`` takes part when it holds the null-label audit's table
``tables/null_labels.csv`` (:mod:`.null_labels`, rule ``null_labels``), copied there with the fold accuracies
``null_labels/folds.csv`` by :func:`export_null_labels`. Each row joins a number the campaign judged (its
``tables/reproduction.csv``, an accuracy) with that method's null-label result: per protocol of the audit table
(``nested`` is the campaign's own protocol; an audit such as ``global_selection`` is the reading it measures),
the accuracy on the real labels and on the permuted ones (mean over the permutations, 95 % t interval), the
chance rate (majority class) and the number of permutations. Where the paper's number is itself a choice made
on the test rows (the best setting on the test folds, ``aggregate: best_setting``; the best of the runs,
``protocol.judged_by_best_run``), the same choice is made on each permutation's fold accuracies (row protocol
``nested, best setting`` / ``nested, best run``) and on the real labels' records. A protocol free of selection
bias reports about chance on permuted labels (Ambroise & McLachlan 2002, sec. 3).

Examples
--------
>>> import pandas as pd
>>> folds = pd.DataFrame({"perm": [0, 0, 1, 1], "setting": ["a", "b", "a", "b"], "fold": [0, 0, 0, 0],
...                       "accuracy": [0.5, 0.7, 0.6, 0.4]})
>>> best_over_settings(folds)
[70.0, 60.0]
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT
from .optimism import t_interval

#: The folder of a committed campaign holding the fold accuracies of the null-label audit.
NULL_DIR = "null_labels"
#: The files a paper-protocol campaign's null-label run merges, in order, by campaign: the campaign's chain in
#: config/campaigns/ (its bases, then its own file) and the overlay switching the audit on, ``null_labels.yaml``.
OVERLAYS = {
    "jimenez2021_paper": ("jimenez2021/paper.yaml", "jimenez2021/paper/null_labels.yaml"),
    "maldonado2011_paper": ("maldonado2011/paper.yaml", "maldonado2011/paper/null_labels.yaml"),
    "maldonado2011_paper_wdbc": ("maldonado2011/paper.yaml", "maldonado2011/paper/wdbc.yaml", "maldonado2011/paper/wdbc/null_labels.yaml"),
    "mit9520_paper_microarray": ("mit9520/paper.yaml", "mit9520/paper/microarray.yaml", "mit9520/paper/microarray/null_labels.yaml"),
}  # fmt: skip
COLUMNS = ["campaign", "paper", "table", "dataset", "method", "setting", "metric", "protocol", "published", "real",
           "null", "null_ci_low", "null_ci_high", "chance", "permutations", "command"]  # fmt: skip
FOLD_COLUMNS = ["perm", "dataset", "method", "setting", "protocol", "fold", "accuracy"]
#: The judged numbers a null-label row stands beside; an error is 100 less the accuracy (so is chance's).
ACCURACY_METRICS = ("test_accuracy", "test_error")


def export_null_labels(results: Path, dest: Path, seed: int, datasets=None) -> list[Path]:
    """Write a campaign's null-label table, Markdown and figure from its results folder ``results``
    (``results/<campaign>``: the real and the permuted jobs' records, as rule ``null_labels`` reads them, by
    the same functions) into the committed folder ``dest`` (``tables/``, ``figures/``, as ``reproduce export``
    lays them out), and the fold accuracies of every permutation into ``dest/null_labels/folds.csv``; return
    the files written. ``seed``: the audit's ``null_labels.seed`` (the table's header). ``datasets``: only these (a campaign whose other datasets' jobs did not run; the
    Markdown's first line names them)."""
    from .null_labels import chance_rates, null_labels_table, read_null_records, write_null_labels
    from .optimism import read_audit_records

    results, dest = Path(results), Path(dest)
    names = sorted(datasets) if datasets else sorted(p.stem for p in (results / "datasets").glob("*.json"))
    pick = lambda pattern: sorted(q for d in names for q in results.glob(pattern.format(d=d)))  # noqa: E731
    null = read_null_records(pick("null_labels/perm-*/runs/{d}/*/*/fold-*.json"),
                             pick("null_labels/perm-*/audits/global_selection/{d}/*/*.json"))  # fmt: skip
    if null.empty:
        raise FileNotFoundError(f"{results}/null_labels: no permuted job of {names}: run the campaign with its overlay")
    real = read_audit_records(pick("runs/{d}/*/*/fold-*.json"), pick("audits/global_selection/{d}/*/*.json"))
    null = _complete(null, real)
    table = null_labels_table(null, real, chance_rates(pick("datasets/{d}.json")))
    out = {"csv": dest / "tables" / "null_labels.csv", "md": dest / "tables" / "null_labels.md",
           "png": dest / "figures" / "null_labels.png"}  # fmt: skip
    for path in out.values():
        path.parent.mkdir(parents=True, exist_ok=True)
    write_null_labels(table, out, int(null["perm"].nunique()), seed)
    if datasets:
        atomic_write_text(out["md"], f"Datasets: {', '.join(names)} only.\n\n" + out["md"].read_text())
    folds = null[FOLD_COLUMNS].sort_values(FOLD_COLUMNS[:-1], kind="mergesort")
    (dest / NULL_DIR).mkdir(parents=True, exist_ok=True)
    atomic_write_text(dest / NULL_DIR / "folds.csv", folds.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    return [*out.values(), dest / NULL_DIR / "folds.csv"]


def _complete(null: pd.DataFrame, real: pd.DataFrame) -> pd.DataFrame:
    """The permutations' results of the jobs whose every outer fold ran (as many folds as on the real labels):
    a permutation half run says nothing of its mean or its best run."""
    group = ["dataset", "method", "setting", "protocol"]
    full = real.groupby(group)["fold"].nunique()
    got = null.groupby([*group, "perm"])["fold"].transform("nunique").to_numpy()
    need = np.array([full.get(tuple(k), -1) for k in null[group].itertuples(index=False)])
    return null[got == need].reset_index(drop=True)


def best_over_settings(folds: pd.DataFrame) -> list[float]:
    """Per permutation (``perm``), the best setting's accuracy over the folds, in percent (the choice of the
    setting on the test folds, made on the permuted labels): the mean of the fold accuracies, or with an
    ``n_test`` column the correct counts pooled over the folds (:func:`.reproduction.pooled_values`)."""
    if "n_test" in folds:
        folds = folds.assign(correct=np.round(folds["accuracy"] * folds["n_test"]))
        sums = folds.groupby(["perm", "setting"], sort=True)[["correct", "n_test"]].sum()
        means = sums["correct"] / sums["n_test"]
    else:
        means = folds.groupby(["perm", "setting"], sort=True)["accuracy"].mean()
    return [float(v) * 100.0 for v in means.groupby(level="perm").max()]


def best_over_runs(folds: pd.DataFrame) -> list[float]:
    """Per permutation (``perm``), the best run's (outer fold's) accuracy, in percent."""
    return [float(v) * 100.0 for v in folds.groupby("perm", sort=True)["accuracy"].max()]


def overlay_command(campaign: str) -> str:
    """The command that runs more permutations of ``campaign``'s null-label audit (after ``restore``)."""
    if campaign not in OVERLAYS:  # a campaign without its overlay in this tree
        return f"snakemake --cores 2 --configfile <{campaign}'s chain and its null_labels.yaml overlay> --replace-workflow-config"
    chain = " ".join(f"config/campaigns/{f}" for f in OVERLAYS[campaign])
    return (f"snakemake --cores 2 --configfile {chain} --replace-workflow-config "
            f"--config 'null_labels={{permutations: K, seed: S}}'")  # fmt: skip


def _published(folder: Path) -> pd.DataFrame:
    t = pd.read_csv(folder / "tables" / "reproduction.csv", keep_default_na=False, na_values=[""])
    t = t[t["metric"].isin(ACCURACY_METRICS) & (pd.to_numeric(t["runs"], errors="coerce").fillna(0) > 0)]
    return t.assign(aggregate=t["key"].astype(str).str.split("|").str[-1])


def _row(base: dict, protocol: str, published, real: float, null_values, chance: float) -> dict:
    mean, lo, hi = t_interval(np.asarray(null_values, float))
    return base | {"protocol": protocol, "published": published, "real": real, "null": mean,
                   "null_ci_low": lo, "null_ci_high": hi, "chance": chance, "permutations": len(null_values)}  # fmt: skip


def _aggregate_rows(base: dict, e, records: pd.DataFrame, folds: pd.DataFrame, chance: float,
                    protocol: dict) -> list[dict]:  # fmt: skip
    """The paper's own choice on the test rows, made on each permutation and on the real labels' records."""
    from .reproduction import accuracy_rule, published

    mine = folds[(folds["dataset"] == e["dataset"]) & (folds["method"] == e["method"]) & (folds["protocol"] == "nested")]
    real = records[(records["dataset"] == e["dataset"]) & (records["method"] == e["method"])]
    real = real.assign(perm=0, accuracy=real["test_accuracy"].astype(float))
    if e["aggregate"] == "best_setting":
        known = e["paper"] in published()["papers"]
        if known and accuracy_rule(e["paper"], protocol) == "pooled":  # the outer test sides are the real data's
            sizes = real.groupby("fold")["n_test"].first()
            mine = mine.assign(n_test=mine["fold"].map(sizes).astype(float))
        else:
            real = real.drop(columns="n_test")
        return [_row(base, "nested, best setting", e["published"], best_over_settings(real)[0],
                     best_over_settings(mine), chance)]  # fmt: skip
    if e["table"] in tuple(protocol.get("judged_by_best_run") or ()):
        mine, real = mine[mine["setting"] == e["setting"]], real[real["setting"] == e["setting"]]
        return [_row(base, "nested, best run", e["published"], best_over_runs(real)[0], best_over_runs(mine), chance)]
    return []


def campaign_null_rows(folder: Path) -> pd.DataFrame:
    """The null-label rows of one committed campaign folder (empty without ``tables/null_labels.csv``)."""
    folder = Path(folder)
    table_path = folder / "tables" / "null_labels.csv"
    if not table_path.exists():
        return pd.DataFrame(columns=COLUMNS)
    table = pd.read_csv(table_path)
    folds = pd.read_csv(folder / NULL_DIR / "folds.csv")
    records = pd.read_parquet(folder / "records.parquet",
                              columns=["dataset", "method", "setting", "fold", "test_accuracy", "n_test"])
    protocol = (yaml.safe_load((folder / "config.yaml").read_text()) or {}).get("protocol") or {}
    rows = []
    for _, e in _published(folder).iterrows():
        base = {"campaign": folder.name, "paper": e["paper"], "table": e["table"], "dataset": e["dataset"],
                "method": e["method"], "setting": e["setting"], "metric": e["metric"],
                "command": overlay_command(folder.name)}  # fmt: skip
        mine = table[(table["dataset"] == e["dataset"]) & (table["method"] == e["method"])]
        if mine.empty:
            continue
        chance = float(mine["chance"].iloc[0])
        if e["aggregate"] != "best_setting":
            for _, r in mine[mine["setting"] == e["setting"]].iterrows():
                rows.append(base | {"protocol": r["protocol"], "published": e["published"], "real": r["accuracy_real"],
                                    "null": r["accuracy_mean"], "null_ci_low": r["accuracy_ci_low"],
                                    "null_ci_high": r["accuracy_ci_high"], "chance": chance, "permutations": int(r["n"])})  # fmt: skip
        rows += _aggregate_rows(base, e, records, folds, chance, protocol)
    out = pd.DataFrame(rows, columns=COLUMNS)
    err = out["metric"] == "test_error"
    out.loc[err, ["real", "null", "chance"]] = 100.0 - out.loc[err, ["real", "null", "chance"]]
    out.loc[err, ["null_ci_low", "null_ci_high"]] = 100.0 - out.loc[err, ["null_ci_high", "null_ci_low"]].to_numpy()
    return out


def null_rows(root: Path) -> pd.DataFrame:
    """The null-label rows of every committed campaign folder under ``root`` (``reproduction/``), by name."""
    frames = [campaign_null_rows(f) for f in sorted(Path(root).iterdir()) if (f / "tables" / "null_labels.csv").exists()]
    frames = [f for f in frames if not f.empty]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)


def _num(v) -> str:
    return "n/a" if pd.isna(v) else f"{float(v):.2f}"


def null_rows_markdown(rows: pd.DataFrame) -> list[str]:
    """REPRODUCTION.md's section body: one table row per judged accuracy and protocol, then the commands."""
    if rows.empty:
        return ["No paper-protocol campaign has committed a null-label audit yet (config/campaigns/<paper>/<campaign file>/null_labels.yaml).", ""]
    out = ["| campaign | paper | table | dataset | method | metric | protocol | published | real labels | permuted "
           "labels [95 % CI] | chance | permutations |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows.itertuples(index=False):
        ci = "" if pd.isna(r.null_ci_low) else f" [{_num(r.null_ci_low)}, {_num(r.null_ci_high)}]"
        out.append(f"| `{r.campaign}` | {r.paper} | {r.table} | {r.dataset} | {r.method} | {r.metric} | {r.protocol} | "
                   f"{_num(r.published)} | {_num(r.real)} | {_num(r.null)}{ci} | {_num(r.chance)} | {r.permutations} |")  # fmt: skip
    out += ["", "More permutations (only the new permutations' jobs run), after "
            "`python -m svmfs.reproduce restore reproduction/<campaign> --configfile <the two files>`:", ""]
    out += [f"- `{c}`: `{cmd}`" for c, cmd in dict(zip(rows["campaign"], rows["command"])).items()]
    return out + [""]



def null_rows_section(root: Path) -> list[str]:
    """REPRODUCTION.md's section "Null-label accuracy beside the published number" from the folders under
    ``root`` (``reproduction/``)."""
    head = ("Where a paper-protocol campaign's protocol selects, scales or tunes with the test rows, the same "
            "protocol on permuted labels (docs/audits.md, \"The null-label audit\"; overlays "
            "`config/campaigns/<paper>/<campaign file>/null_labels.yaml`): the accuracy (%) on the real labels and on the permuted ones (mean "
            "over the permutations, 95 % t interval), beside the published number and chance (the majority "
            "class). A protocol free of selection bias reports about chance on permuted labels; `nested` is the "
            "campaign's protocol, an audit (`global_selection`) the reading it measures; `best setting` / "
            "`best run`: the paper's choice on the test folds, made again on each permutation. `real labels` is "
            "the same protocol's test accuracy on the real labels (the audit table's), not the judged value where "
            "a table is judged by the inner CV (`protocol.judged_by_inner_cv`); a `test_error` row gives 100 less "
            "each accuracy (chance: the majority class's error).")  # fmt: skip
    return ["## Null-label accuracy beside the published number", "", head, ""] + null_rows_markdown(null_rows(root))


if __name__ == "__main__":  # python -m svmfs.analysis.null_rows results/<c> reproduction/<c> <overlay> [dataset ...]
    import sys

    block = yaml.safe_load(Path(sys.argv[3]).read_text())["null_labels"]
    files = export_null_labels(Path(sys.argv[1]), Path(sys.argv[2]), int(block["seed"]), sys.argv[4:] or None)
    print("\n".join(map(str, files)))
