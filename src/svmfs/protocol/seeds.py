"""Seeds derived from names, so every random choice is reproducible and independent of job order."""

from __future__ import annotations

import hashlib


def derive_seed(base: int, *parts: object) -> int:
    """A 32-bit seed from the campaign seed and any names (dataset, fold, method, ...)."""
    text = "\x1f".join([str(int(base)), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
