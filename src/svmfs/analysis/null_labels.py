"""The null-label audit's table and figure: each protocol's accuracy on permuted labels beside chance.

Per (dataset, method, setting) and protocol (``nested`` and every audit the campaign switches on, as in
:mod:`.optimism`): the protocol's mean test accuracy over the outer folds on each of the K label
permutations (:mod:`svmfs.protocol.null_labels`), then the mean over the permutations with its 95 % t
interval over them (``n`` = K; NaN bounds for K < 2), the nested protocol's balanced accuracy likewise
(NaN for the audits, whose records keep the accuracy alone), the chance rate (the majority class's share of
the rows, which a permutation keeps), and the protocol's mean accuracy on the real labels. All in percent.
A protocol without selection bias reports about chance (or a little less: a left-out row's class is the
smaller one on its training side); one that selects or tunes with the test rows reports more (Ambroise &
McLachlan 2002, sec. 3).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT
from .optimism import KEYS, PROTOCOLS, read_audit_records, t_interval
from .tables import method_label

COLUMNS = [
    "dataset", "method", "setting", "protocol", "n", "accuracy_mean", "accuracy_ci_low", "accuracy_ci_high",
    "balanced_accuracy_mean", "chance", "accuracy_real",
]  # fmt: skip


def _perm_of(path) -> int:
    """The permutation index of a file under ``null_labels/perm-<p>/``."""
    part = next(p for p in Path(path).parts if p.startswith("perm-"))
    return int(part.removeprefix("perm-"))


def _balanced(select_jsons) -> pd.DataFrame:
    rows = []
    for path in select_jsons:
        rec = json.loads(Path(path).read_text())
        rows.append({**{k: rec[k] for k in KEYS}, "fold": int(rec["fold"]),
                     "balanced_accuracy": float(rec.get("test_balanced_accuracy", np.nan))})  # fmt: skip
    return pd.DataFrame(rows, columns=[*KEYS, "fold", "balanced_accuracy"])


def read_null_records(select_jsons, global_jsons) -> pd.DataFrame:
    """Fold accuracies of every permutation (:func:`~.optimism.read_audit_records` per permutation, with a
    ``perm`` column) and the nested jobs' balanced accuracy by fold (``balanced_accuracy``)."""
    frames = []
    for perm in sorted({_perm_of(p) for p in select_jsons}):
        sel = [p for p in select_jsons if _perm_of(p) == perm]
        glob = [p for p in global_jsons if _perm_of(p) == perm]
        folds = read_audit_records(sel, glob)
        bal = _balanced(sel).assign(protocol="nested")
        folds = folds.merge(bal, on=[*KEYS, "fold", "protocol"], how="left")
        frames.append(folds.assign(perm=perm))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["perm"])


def chance_rates(meta_jsons) -> dict[str, float]:
    """The majority class's share of each dataset's rows (its ``.json``'s ``class_counts``), by dataset name."""
    out = {}
    for path in meta_jsons:
        meta = json.loads(Path(path).read_text())
        counts = list(meta["class_counts"].values())
        out[Path(path).stem] = max(counts) / sum(counts)
    return out


def null_labels_table(null: pd.DataFrame, real: pd.DataFrame, chance: dict[str, float]) -> pd.DataFrame:
    """One row per (dataset, method, setting, protocol) of ``null`` (:func:`read_null_records`); ``real``: the
    real labels' fold accuracies (:func:`~.optimism.read_audit_records`); accuracies in percent."""
    rows = []
    real_mean = real.groupby([*KEYS, "protocol"])["accuracy"].mean() * 100.0
    for key, g in null.groupby(KEYS, sort=True):
        for protocol in PROTOCOLS:
            sub = g[g["protocol"] == protocol]
            if sub.empty:
                continue
            per_perm = sub.groupby("perm")
            acc = t_interval(per_perm["accuracy"].mean().to_numpy() * 100.0)
            bal = per_perm["balanced_accuracy"].mean().to_numpy(float) * 100.0
            bal = float(np.nanmean(bal)) if np.isfinite(bal).any() else float("nan")
            rows.append(dict(zip(KEYS, key)) | {
                "protocol": protocol, "n": int(per_perm.ngroups),
                "accuracy_mean": acc[0], "accuracy_ci_low": acc[1], "accuracy_ci_high": acc[2],
                "balanced_accuracy_mean": bal, "chance": chance.get(key[0], float("nan")) * 100.0,
                "accuracy_real": float(real_mean.get((*key, protocol), float("nan"))),
            })  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def _ci(m, lo, hi) -> str:
    if pd.isna(m):
        return "n/a"
    return f"{m:.2f}" if pd.isna(lo) else f"{m:.2f} [{lo:.2f}, {hi:.2f}]"


def display_table(table: pd.DataFrame) -> pd.DataFrame:
    """The Markdown table's rows: one per (dataset, method, protocol), accuracies in percent."""
    rows = [{
        "dataset": r["dataset"], "method": method_label(r), "protocol": r["protocol"], "permutations": int(r["n"]),
        "permuted accuracy (%) [95 % CI]": _ci(r["accuracy_mean"], r["accuracy_ci_low"], r["accuracy_ci_high"]),
        "permuted balanced accuracy (%)": "n/a" if pd.isna(r["balanced_accuracy_mean"]) else f"{r['balanced_accuracy_mean']:.2f}",
        "chance (%)": f"{r['chance']:.2f}", "real accuracy (%)": "n/a" if pd.isna(r["accuracy_real"]) else f"{r['accuracy_real']:.2f}",
    } for _, r in table.iterrows()]  # fmt: skip
    return pd.DataFrame(rows)


def null_labels_figure(table: pd.DataFrame):
    """One panel per dataset: per protocol and method, the accuracy on the real labels (open marker) and on the
    permuted ones (filled, 95 % t interval over the permutations); the chance rate as a dashed line."""
    from .figures import MARKERS, OKABE_ITO, label, message_figure, panels

    if table.empty:
        return message_figure("no null-label result (campaign key audits: null_labels)")
    datasets = sorted(table["dataset"].unique())
    fig, axes = panels(len(datasets), width=4.6, height=3.4)
    for ax, ds in zip(axes, datasets):
        sub = table[table["dataset"] == ds]
        protocols = [p for p in PROTOCOLS if p in set(sub["protocol"])]
        methods = sorted({label(m, s) for m, s in zip(sub["method"], sub["setting"])})
        width = 0.7 / max(len(methods), 1)
        for j, meth in enumerate(methods):
            pts = sub[[label(m, s) == meth for m, s in zip(sub["method"], sub["setting"])]]
            xs = np.array([protocols.index(p) for p in pts["protocol"]]) - 0.35 + width * (j + 0.5)
            m = pts["accuracy_mean"].to_numpy(float)
            yerr = np.vstack([np.nan_to_num(m - pts["accuracy_ci_low"].to_numpy(float)),
                              np.nan_to_num(pts["accuracy_ci_high"].to_numpy(float) - m)])  # fmt: skip
            color, marker = OKABE_ITO[j % len(OKABE_ITO)], MARKERS[j % len(MARKERS)]
            ax.errorbar(xs, m, yerr=yerr, fmt=marker, color=color, capsize=2, ms=5, lw=1,
                        label=f"{meth}, permuted" if ds == datasets[0] else None)  # fmt: skip
            ax.plot(xs, pts["accuracy_real"], marker, mfc="none", color=color, ms=7,
                    label=f"{meth}, real" if ds == datasets[0] else None)  # fmt: skip
        ax.axhline(float(sub["chance"].iloc[0]), color="0.4", lw=0.8, ls="--")
        ax.set_xticks(range(len(protocols)), protocols, rotation=20, ha="right", fontsize=8)
        ax.set_title(f"{ds} (dashed: chance)")
        ax.set_ylabel("test accuracy (%)")
        ax.grid(True, axis="y", alpha=0.3)
    fig.legend(loc="lower center", ncol=2, bbox_to_anchor=(0.5, -0.02), fontsize=7)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    return fig


def write_null_labels(table: pd.DataFrame, out: dict, permutations: int, seed: int) -> None:
    """Write ``out["csv"]``, ``out["md"]`` and the figure ``out["png"]`` (and ``out["pdf"]``)."""
    from .figures import save_figure

    atomic_write_text(out["csv"], table.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    head = (
        f"Null-label audit: each protocol's test accuracy (%) on {permutations} permutation(s) of the labels "
        f"(seed {seed}; mean over the outer folds, then mean and 95 % t CI over the permutations), the chance rate "
        "(majority class) and the protocol's accuracy on the real labels. Without selection bias a protocol "
        "reports about chance on permuted labels."
    )
    md = head + "\n\n" + display_table(table).to_markdown(index=False, disable_numparse=True) + "\n"
    atomic_write_text(out["md"], md)
    save_figure(null_labels_figure(table), out["png"], out.get("pdf"))
