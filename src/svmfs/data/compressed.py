"""A data file's bytes or text, decompressed by its suffix (.gz, .bz2, .Z): below every reader
(:mod:`.formats`, :mod:`.geo`), so that none of them imports another for it."""

from __future__ import annotations

import bz2
import gzip
from pathlib import Path

from .canonical import DatasetError


def read_bytes(path: Path) -> bytes:
    """The file's content, decompressed by suffix (.gz, .bz2, .Z)."""
    raw = path.read_bytes()
    try:
        if path.suffix == ".gz":
            return gzip.decompress(raw)
        if path.suffix == ".bz2":
            return bz2.decompress(raw)
        if path.suffix == ".Z":
            import unlzw3

            return unlzw3.unlzw(raw)
    except (OSError, EOFError, ValueError, RuntimeError) as e:
        raise DatasetError(f"{path}: corrupt or truncated compressed file ({type(e).__name__}: {e})") from None
    return raw


def read_text(path: Path) -> str:
    text = read_bytes(path).decode("utf-8", errors="replace")
    if not text.strip():
        raise DatasetError(f"{path}: empty file")
    return text
