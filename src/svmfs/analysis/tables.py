"""Dataset x method tables from the merged records (CSV, Markdown, LaTeX booktabs).

``summary`` holds only quantities fixed by the config and the code, so the same config and seed
give byte-identical files; ``timing`` holds run times, which depend on the machine.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..results.io import atomic_write_text
from ..results.record import FLOAT_FORMAT

OK_STATUSES = ("ok", "acceptable")
KEYS = ["dataset", "method", "setting"]


def summary_table(records: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over folds of test accuracy (%), balanced accuracy, AUC, features, recall, the
    anisotropic widths' ||gamma||_1 (where the method has them), failures."""
    df = records.copy()
    df["failed"] = ~df["status"].isin(OK_STATUSES)
    for col in ("test_accuracy", "test_balanced_accuracy", "train_accuracy"):
        df[col] = 100.0 * df[col].astype(float)
    g = df.groupby(KEYS, sort=True, dropna=False)
    out = pd.DataFrame(
        {
            "folds": g.size(),
            "test_accuracy_mean": g["test_accuracy"].mean(),
            "test_accuracy_sd": g["test_accuracy"].std(ddof=1),
            "balanced_accuracy_mean": g["test_balanced_accuracy"].mean(),
            "auc_mean": g["test_auc"].mean(),
            "train_accuracy_mean": g["train_accuracy"].mean(),
            "n_selected_mean": g["n_selected"].mean(),
            "n_selected_sd": g["n_selected"].std(ddof=1),
            "n_features_total": g["n_features_total"].first(),
            "recall_relevant_mean": g["recall_relevant"].mean(),
            "exact_relevant_rate": g["exact_relevant"].apply(
                lambda s: float(np.mean(s.astype(float))) if s.notna().all() else np.nan
            ),
            "kernel_width_l1_mean": g["kernel_width_l1"].mean() if "kernel_width_l1" in df else np.nan,
            "failures": g["failed"].sum().astype(int),
            "leaky_normalization": g["leaky_normalization"].any(),
        }
    ).reset_index()
    return out


def timing_table(records: pd.DataFrame) -> pd.DataFrame:
    g = records.groupby(KEYS, sort=True, dropna=False)
    return pd.DataFrame(
        {"fit_time_s_mean": g["fit_time_s"].mean(), "tune_time_s_mean": g["tune_time_s"].mean(), "folds": g.size()}
    ).reset_index()


def _pm(mean, sd, digits=2) -> str:
    if pd.isna(mean):
        return "n/a"
    return f"{mean:.{digits}f}" if pd.isna(sd) else f"{mean:.{digits}f} ± {sd:.{digits}f}"


def method_label(row) -> str:
    """A method as the display tables name it: ``method`` or ``method (setting)``."""
    return row["method"] if row["setting"] == "default" else f"{row['method']} ({row['setting']})"


def display_table(summary: pd.DataFrame) -> pd.DataFrame:
    """The human-readable form used for Markdown and LaTeX."""
    rows = []
    for _, r in summary.iterrows():
        rows.append(
            {
                "dataset": r["dataset"],
                "method": method_label(r),
                "test accuracy (%)": _pm(r["test_accuracy_mean"], r["test_accuracy_sd"]),
                "balanced acc. (%)": _pm(r["balanced_accuracy_mean"], np.nan),
                "AUC": _pm(r["auc_mean"], np.nan, 3),
                "features": f"{_pm(r['n_selected_mean'], r['n_selected_sd'], 1)} / {int(r['n_features_total'])}",
                "recall": _pm(r["recall_relevant_mean"], np.nan),
                "failures": f"{int(r['failures'])}/{int(r['folds'])}",
            }
        )
    return pd.DataFrame(rows)


def multiclass_note(records: pd.DataFrame) -> str:
    """The Markdown note under the summary naming the multiclass datasets (records with ``n_classes``), whose
    balanced accuracy is the mean per-class recall and AUC the macro one-versus-rest AUC (docs/multiclass.md);
    empty when every dataset is binary."""
    if "n_classes" not in records or not records["n_classes"].notna().any():
        return ""
    k = records.dropna(subset=["n_classes"]).groupby("dataset", sort=True)["n_classes"].max().astype(int)
    names = ", ".join(f"{d} ({n} classes)" for d, n in k.items())
    return (f"\n\n**Multiclass**: {names}: balanced accuracy is the mean per-class recall, AUC the macro "
            "one-versus-rest AUC of the final classifier's decision values; binary selectors ran one versus rest "
            "(the union of the per-class selections).\n")


def to_latex_booktabs(df: pd.DataFrame, caption: str) -> str:
    body = df.to_latex(index=False, escape=True, column_format="l" * df.shape[1], caption=caption)
    return body.replace("±", r"$\pm$")


def write_summary(records: pd.DataFrame, csv, md, tex, timing_csv, leaky_note: bool | None = None, stand_in: str | None = None) -> None:
    """The summary in three forms and the timing table; ``stand_in`` (the campaign's key) heads the
    Markdown and LaTeX tables, so a table run on stand-in data cannot pass for the paper's."""
    summary = summary_table(records)
    atomic_write_text(csv, summary.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
    disp = display_table(summary)
    head = f"**Stand-in data:** {stand_in}\n\n" if stand_in else ""
    note = ""
    if summary["leaky_normalization"].any():
        note = "\n\n**Leaky normalization**: features were scaled on all rows (scope: global), as in the replicated paper.\n"
    note += multiclass_note(records)
    atomic_write_text(md, head + disp.to_markdown(index=False, disable_numparse=True) + "\n" + note)
    caption = "Test accuracy and number of selected features (mean $\\pm$ sd over outer folds)."
    if stand_in:
        caption += " Stand-in data: " + stand_in.replace("_", "\\_")
    atomic_write_text(tex, to_latex_booktabs(disp, caption))
    atomic_write_text(timing_csv, timing_table(records).to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n"))
