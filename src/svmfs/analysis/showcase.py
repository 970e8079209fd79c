"""The README's first look at a campaign: one condensed table and one figure, written under ``docs/``.

``python -m svmfs.analysis.showcase [results/default] [docs]`` reads the campaign's
``tables/summary.csv`` (and ``tables/ranks.csv`` when the comparison was tested) and writes
``default_campaign.md`` (one row per method and setting: the paper it comes from, as its select jobs'
records name it (``method_paper``, the registry's ``paper``), then per dataset the mean test accuracy and
the mean number of selected features) and ``default_campaign.png`` (accuracy
against the number of selected features, one panel per dataset: ``figures/accuracy_vs_features``
drawn smaller). With a third argument (``README.md``) the table also replaces the text between the
file's ``<!-- showcase:start -->`` and ``<!-- showcase:end -->`` lines. ``docs/regenerate.sh`` runs the
default campaign and then this.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pandas as pd

from ..results.io import atomic_write_bytes, atomic_write_text
from .figures import accuracy_vs_features, label, plt

# The five papers of the specification (the keys of analysis/published.yaml) and how a method's ``paper``
# (the registry's, carried by its records as ``method_paper``) names them; a method belongs to the paper
# named first there (SVM-RFE's entry cites Guyon et al., then the MIT 9.520 project that specifies it).
PAPERS = {
    "mit9520": "MIT 9.520",
    "rinaldi2010": "Rinaldi & Sciandrone",
    "catala_martin": "Catala & Martin",
    "maldonado2011": "Maldonado, Weber & Basak",
    "jimenez2021": "Jimenez-Cordero",
}


#: The paper column of a method whose records do not name its paper (made before records carried it).
NOT_RECORDED = "not recorded"


def paper_key(text: str) -> str | None:
    """The key of ``PAPERS`` named first in a method's ``paper`` text (None for the baselines and methods
    of other papers)."""
    found = [(text.find(name), key) for key, name in PAPERS.items() if name in text]
    return min(found)[1] if found else None


def condensed_table(summary: pd.DataFrame, papers: dict[str, str] | None = None, ranks: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per competitor (method and setting): its paper, its average rank over the datasets (when
    ``ranks`` is given) and per dataset "accuracy % (features)", means over the outer folds.

    A cell is marked `` *`` when some of its folds ended with a solver status other than ok / acceptable
    (``max_iter``, ``time_limit``, ...: the summary's ``failures``); their selections are still scored.
    ``papers`` maps the campaign's method names to their ``paper`` text (:func:`recorded_papers`); a method
    it does not name gets :data:`NOT_RECORDED`, one whose text names none of ``PAPERS`` "baseline".
    """
    papers = papers or {}
    summary = summary.assign(competitor=[label(m, s) for m, s in zip(summary["method"], summary["setting"])])
    failures = summary["failures"] if "failures" in summary else pd.Series(0, index=summary.index)
    cells = summary.assign(cell=[
        (f"{a:.1f} ({k:.1f})" if pd.notna(a) else "n/a") + (" *" if f > 0 else "")
        for a, k, f in zip(summary["test_accuracy_mean"], summary["n_selected_mean"], failures)
    ])  # fmt: skip
    wide = cells.pivot_table(index="competitor", columns="dataset", values="cell", aggfunc="first").fillna("not run")
    widths = summary.groupby("dataset")["n_features_total"].first()
    wide.columns = [f"{ds} (p = {int(widths[ds])})" for ds in wide.columns]
    first = summary.drop_duplicates("competitor").set_index("competitor")["method"]
    out = pd.DataFrame(index=wide.index)
    out["paper"] = [(paper_key(papers[first[c]]) or "baseline") if first[c] in papers else NOT_RECORDED for c in wide.index]
    if ranks is not None and not ranks.empty:
        out["average rank"] = ranks.set_index("method")["average_rank"].reindex(wide.index).map(
            lambda r: f"{r:.2f}" if pd.notna(r) else "-"
        )
    out = out.join(wide)
    order = out["average rank"].replace("-", "99") if "average rank" in out else pd.Series(0, index=out.index)
    out = out.assign(_o=order.astype(float)).sort_values(["_o"], kind="stable").drop(columns="_o")
    return out.rename_axis("method (setting)").reset_index()


def showcase_figure(summary: pd.DataFrame) -> bytes:
    """``accuracy_vs_features`` as PNG bytes at 80 dpi (no timestamp in the metadata: same bytes every run)."""
    fig = accuracy_vs_features(summary)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def write_showcase(results: str | Path, out_dir: str | Path, papers: dict[str, str] | None = None) -> tuple[Path, Path]:
    """Write ``default_campaign.md`` and ``default_campaign.png`` to ``out_dir`` from a campaign's results
    (``papers``: as :func:`condensed_table` takes them; default: :func:`recorded_papers`)."""
    results, out_dir = Path(results), Path(out_dir)
    summary = pd.read_csv(results / "tables" / "summary.csv")
    ranks_path = results / "tables" / "ranks.csv"
    ranks = pd.read_csv(ranks_path) if ranks_path.exists() else None
    if papers is None:
        papers = recorded_papers(results)
    table = condensed_table(summary, papers, ranks)
    n_folds = summary.groupby("dataset")["folds"].first()
    text = (
        table.to_markdown(index=False, disable_numparse=True)
        + "\n\nTest accuracy in % (mean number of selected features), means over "
        + ", ".join(f"{ds}: {int(k)}" for ds, k in n_folds.items())
        + " outer folds or instances; average rank over the datasets (1 = best, Friedman ranks of `tables/ranks.csv`;"
        + " '-' for a method not run on every dataset); * some folds ended with a solver status other than ok"
        + " (e.g. max_iter: the iteration limit; `failures` in `tables/summary.md`), their selections still scored."
        + (f" Paper {NOT_RECORDED!r}: the method's records do not name it (made before records carried"
           " `method_paper`)." if (table["paper"] == NOT_RECORDED).any() else "")
        + " From `tables/summary.csv`.\n"
    )  # fmt: skip
    md, png = out_dir / "default_campaign.md", out_dir / "default_campaign.png"
    atomic_write_text(md, text)
    atomic_write_bytes(png, showcase_figure(summary))
    return md, png


START, END = "<!-- showcase:start -->", "<!-- showcase:end -->"


def splice(text: str, table_md: str) -> str:
    """``text`` with the lines between the START and END markers replaced by ``table_md``."""
    head, sep, rest = text.partition(START + "\n")
    body, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        raise ValueError(f"no {START} ... {END} block to replace")
    return head + START + "\n" + table_md.rstrip("\n") + "\n" + END + tail


def recorded_papers(results: str | Path) -> dict[str, str]:
    """Campaign method name -> its ``paper`` text, as the merged records (``records.parquet``) carry it in
    ``method_paper``; methods whose records do not (made before records carried it) are left out."""
    path = Path(results) / "records.parquet"
    if not path.exists():
        return {}
    rec = pd.read_parquet(path)
    if "method_paper" not in rec:
        return {}
    rec = rec.dropna(subset=["method_paper"]).drop_duplicates("method")
    return dict(rec[["method", "method_paper"]].itertuples(index=False, name=None))


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    results = args[0] if args else "results/default"
    out_dir = args[1] if len(args) > 1 else "docs"
    md, png = write_showcase(results, out_dir)
    for path in (md, png):
        print(f"wrote {path} ({path.stat().st_size} bytes)")
    if len(args) > 2:
        readme = Path(args[2])
        atomic_write_text(readme, splice(readme.read_text(encoding="utf-8"), md.read_text(encoding="utf-8")))
        print(f"updated the table in {readme}")


if __name__ == "__main__":
    main()
