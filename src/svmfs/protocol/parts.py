"""The parts of a select job run apart (rule select_part), by name: ``inner-<k>`` (inner fold k,
the whole grid), ``inner-<k>-grid-<b>`` (inner fold k, block b of ``split_grid``), ``audit`` / ``audit-grid-<b>``
(the ``test_tuned`` audit's candidates, ``split_audit``) and ``global-scaling`` (the ``global_scaling`` audit's
refit, ``split_global_scaling``). Which parts a campaign's job has: :func:`svmfs.config.part_names`."""

from __future__ import annotations

import re

#: The part that runs a select job's ``global_scaling`` audit (``split_global_scaling``).
GLOBAL_SCALING_PART = "global-scaling"

PART_NAME = re.compile(r"(?:inner-(\d+)|audit)(?:-grid-(\d+))?|" + GLOBAL_SCALING_PART)


def grid_block(method_cfg: dict, part: str) -> tuple[int | None, dict | None]:
    """A part's name (:func:`svmfs.config.part_names`) read back: (its inner fold, None for an audit part; its block of the
    grid, one of ``method_cfg["split_grid"]``, or None for the whole grid)."""
    match = PART_NAME.fullmatch(part)
    if match is None or part == GLOBAL_SCALING_PART:
        raise ValueError(f"part {part!r}: not inner-<k>, inner-<k>-grid-<b>, audit or audit-grid-<b>")
    inner = None if match.group(1) is None else int(match.group(1))
    if match.group(2) is None:
        return inner, None
    blocks = method_cfg.get("split_grid") or []
    b = int(match.group(2))
    if b >= len(blocks):
        raise ValueError(f"part {part!r}: split_grid has {len(blocks)} blocks")
    return inner, blocks[b]


def is_audit_part(part: str) -> bool:
    """Whether a part (:func:`svmfs.config.part_names`) is an in-job audit's (``split_audit``: ``test_tuned`` candidates;
    ``split_global_scaling``: the ``global_scaling`` refit), not an inner fold's scores."""
    return part.startswith("audit") or part == GLOBAL_SCALING_PART
