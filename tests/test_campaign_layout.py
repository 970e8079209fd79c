"""The layout of config/campaigns/: every campaign chain loads and validates, an overlay restates no value
of the chain it sits on, and campaign files share few long lines (the shared part belongs in a base).

A chain is the ordered ``--configfile`` list Snakemake merges (later wins). Under
``config/campaigns/<paper>/`` the file ``<base>/<what>.yaml`` overlays ``<base>.yaml`` (recursively), so
``maldonado2011/paper/wdbc/train_third.yaml`` runs as ``paper.yaml paper/wdbc.yaml paper/wdbc/train_third.yaml``.
The flat folders ``reduced/``, ``subsets/`` and ``offline/`` overlay the top-level campaign they name.
"""

from pathlib import Path

import pytest
import yaml

from svmfs.config import deep_update, validate_schema
from svmfs.reproduce.jobs import merge_configs

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS = ROOT / "config" / "campaigns"
FLAT_OVERLAYS = ("reduced", "subsets", "offline")
MAX_REPEATED_SHARE = 0.10
LONG = 40  # characters: a line this long restated elsewhere is copied configuration, not a shared short key


def _flat_base(path: Path) -> list[Path]:
    """The chain under a flat overlay folder: the top-level campaign whose name prefixes the file's."""
    stem = path.stem
    tops = sorted((p for p in CAMPAIGNS.glob("*.yaml") if stem == p.stem or stem.startswith(p.stem + "_")),
                  key=lambda p: -len(p.stem))  # fmt: skip
    if not tops:
        raise AssertionError(f"{path.relative_to(ROOT)}: no top-level campaign of that name to overlay")
    extra = [path.parent / "jimenez2021_tables.yaml"] if stem == "jimenez2021_colon" else []  # its provenance chain
    return [tops[0], *extra]


def chain(path: Path) -> list[Path]:
    """The ordered config files one campaign file runs with, base first, the file itself last."""
    rel = path.relative_to(CAMPAIGNS)
    if rel.parts[0] in FLAT_OVERLAYS:
        return [*_flat_base(path), path]
    if rel.parts[0] == "null_labels":  # the null-label audit on a paper-protocol campaign of the same name
        return [*chain(CAMPAIGNS / "protocol" / rel.name), path]
    if len(rel.parts) <= 2 or rel.parts[0] == "protocol":  # a base (top-level, <paper>/<base>.yaml, protocol/)
        return [path]
    return [*chain(path.parent.with_suffix(".yaml")), path]


def campaign_files() -> list[Path]:
    return sorted(CAMPAIGNS.rglob("*.yaml"))


def long_lines(path: Path) -> list[str]:
    """The file's non-comment lines of at least ``LONG`` characters, comments stripped, whitespace trimmed."""
    out = []
    for line in path.read_text().splitlines():
        text = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if len(text) >= LONG:
            out.append(text)
    return out


def repeated_share(files) -> tuple[float, int, int]:
    """(share, repeated, distinct): of the distinct long non-comment lines of ``files``, those standing in more
    than one file."""
    where: dict[str, set] = {}
    for f in files:
        for line in long_lines(f):
            where.setdefault(line, set()).add(f)
    repeated = sum(1 for fs in where.values() if len(fs) > 1)
    return (repeated / len(where) if where else 0.0), repeated, len(where)


def restated(base, overlay, key=()) -> list[str]:
    """Keys of ``overlay`` whose value equals ``base``'s (an overlay holds only what it changes)."""
    if not isinstance(overlay, dict) or not isinstance(base, dict):
        return [".".join(key)] if overlay == base else []
    return [k for name, v in overlay.items() if name in base for k in restated(base[name], v, (*key, str(name)))]


@pytest.mark.parametrize("path", campaign_files(), ids=lambda p: str(p.relative_to(CAMPAIGNS)))
def test_chain_loads_and_validates(path):
    files = chain(path)
    assert all(f.exists() for f in files), files
    config = merge_configs(files)
    assert config.get("campaign"), f"{path}: the chain names no campaign"
    validate_schema(yaml.safe_load(yaml.safe_dump(config)), source=str(path.relative_to(ROOT)))


@pytest.mark.parametrize("path", [p for p in campaign_files() if len(chain(p)) > 1],
                         ids=lambda p: str(p.relative_to(CAMPAIGNS)))  # fmt: skip
def test_overlay_changes_every_key_it_holds(path):
    files = chain(path)
    same = restated(merge_configs(files[:-1]), yaml.safe_load(path.read_text()) or {})
    assert not same, f"{path.relative_to(ROOT)} restates its base's value at: {same}"


def test_restated_and_share_measure_what_they_say(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    line = "methods: {kp_svm: {params: {C2: 10.0, C: 10.0, v0: 0.3}}}"
    a.write_text(f"# {line}\n{line}\nsplits: {{kind: kp_svm, n_instances: 1, train_size: 0.5}}\n")
    b.write_text(f"{line}  # the same line, commented\n")
    assert repeated_share([a, b]) == (1 / 2, 1, 2)
    assert restated({"m": {"C": 1, "g": 2}}, {"m": {"C": 1, "g": 3}}) == ["m.C"]


@pytest.mark.xfail(strict=True, reason="the flat layout (protocol/*.yaml restating their paper campaign) is not yet "
                                       "migrated to per-paper overlays")  # fmt: skip
def test_campaign_files_share_few_long_lines():
    share, repeated, total = repeated_share(campaign_files())
    assert share <= MAX_REPEATED_SHARE, f"{repeated} of {total} distinct long non-comment lines repeated ({share:.0%})"
