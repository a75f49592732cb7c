"""Cache keys: what a built registry depends on, hashed.

A key covers the catalogues' bytes (every file of a folder, with its
relative path), where they are and under which namespace, the options that
change the result (built-in catalogue included, API policies), opgate's
version and the source of the code that reads, names and checks tools. An
edited catalogue, a new opgate or an edited naming rule all give a new key,
so an old cache is never read for them.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..catalog._sources import split_catalog_spec

CORE = Path(__file__).resolve().parents[1]
# The code and data a registry (and the search index over it) is made with.
_SHAPING = ("catalog", "registry", "search", "cache", "_builtin.py", "_schema_check.py", "_ref_cycles.py", "executors/_defaults.py", "safe_json.py")
_SKIPPED_PARTS = ("__pycache__", ".git")
# A file changed this recently may change again within the same clock tick: its stamp is not trusted yet.
_SETTLE_NS = 2_000_000_000
_MEMO_STAMPS = 8


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    # os.walk lists what Path.rglob("*") lists (neither enters a linked folder) about 8x faster: every command computes this key.
    found = []
    for folder, folders, names in os.walk(path):
        folders[:] = [name for name in folders if name not in _SKIPPED_PARTS]
        found += (Path(folder, name) for name in names)
    return sorted(p for p in found if p.is_file() and not any(part in _SKIPPED_PARTS for part in p.parts))


def _shaping_files() -> list[tuple[Path, Path]]:
    """(root, file) of every file the fingerprint covers, in a fixed order."""
    fixtures = CORE.parent / "fixtures" / "catalog"
    return [(root, file) for root in [*(CORE / name for name in _SHAPING), fixtures] for file in (_files(root) if root.exists() else [])]


def _hashed(files: list[tuple[Path, Path]], version: str) -> str:
    digest = hashlib.sha256(version.encode())
    for root, file in files:
        digest.update(str(file.relative_to(root.parent)).encode() + b"\0")
        digest.update(file.read_bytes())
    return digest.hexdigest()


def _stat_stamp(files: list[tuple[Path, Path]], version: str) -> str | None:
    """What the files' metadata says about them (path, size, inode, modification and change times), hashed.

    None when a file changed in the last :data:`_SETTLE_NS`: an edit within
    the same clock tick could leave its metadata as it was, so a stamp taken
    then is not trusted (git's "racy" index entries, handled the same way).
    """
    digest = hashlib.sha256(f"{version}\0{CORE}\0".encode())
    settled = time.time_ns() - _SETTLE_NS
    for root, file in files:
        info = file.stat()
        if info.st_mtime_ns >= settled or info.st_ctime_ns >= settled:
            return None
        digest.update(f"{file.relative_to(root.parent)}\0{info.st_size}\0{info.st_ino}\0{info.st_mtime_ns}\0{info.st_ctime_ns}\n".encode())
    return digest.hexdigest()


def _remembered(memo: Path, stamp: str) -> tuple[str | None, dict[str, str]]:
    """The fingerprint the memo holds for ``stamp`` (None if it has none), and the whole memo."""
    from ._file import read_cache_file

    found = read_cache_file(memo, kind="code-fingerprint", key="code")
    try:
        known = found.json("memo") if found is not None else {}
    except (ValueError, KeyError):  # KeyError: a whole file without the section (another opgate shares the folder)
        known = {}
    if not isinstance(known, dict):
        known = {}
    fingerprint = known.get(stamp)
    return (fingerprint if isinstance(fingerprint, str) and len(fingerprint) == 64 else None), known


@lru_cache(maxsize=4)
def code_fingerprint(memo_folder: Path | None = None) -> str:
    """A hash of opgate's version and of the source that turns catalogues into a registry and an index.

    Hashing that source (about 1 MB) cost a command line more than anything
    else it does with a cached registry. With ``memo_folder`` (the registry
    cache's private folder), the hash is remembered under a stamp of the
    files' metadata, as Python trusts a ``.pyc`` by its source's size and
    time: any edit, added or removed file, or new version makes a new stamp,
    and the files are hashed again.
    """
    from opgate import __version__

    files = _shaping_files()
    if memo_folder is None:
        return _hashed(files, __version__)
    stamp = _stat_stamp(files, __version__)
    memo = memo_folder / "code.fingerprint"
    known: dict[str, str] = {}
    if stamp is not None:
        fingerprint, known = _remembered(memo, stamp)
        if fingerprint is not None:
            return fingerprint
    fingerprint = _hashed(files, __version__)
    if stamp is not None:
        from ._file import write_cache_file

        # A few stamps, newest last: checkouts sharing one cache folder each keep theirs.
        kept = {old: value for old, value in list(known.items())[-(_MEMO_STAMPS - 1) :] if old != stamp}
        kept[stamp] = fingerprint
        try:
            write_cache_file(memo, kind="code-fingerprint", key="code", sections={"memo": json.dumps(kept).encode()})
        except OSError:
            pass  # not remembered: the next command hashes again
    return fingerprint


def catalog_key(specs: Iterable[str | Path], *, include_builtin: bool, policies: Mapping[str, Any] | None = None, memo_folder: Path | None = None) -> str | None:
    """The key of a registry built from ``specs`` (``NAME=PATH`` allowed); None if a path does not exist.

    ``memo_folder``: where :func:`code_fingerprint` may remember its hash.
    """
    digest = hashlib.sha256(code_fingerprint(memo_folder).encode())
    digest.update(f"builtin={include_builtin}\0policies={sorted((policies or {}).items())!r}\0".encode())
    for spec in specs:
        namespace, raw = split_catalog_spec(spec) if isinstance(spec, str) else (None, str(spec))
        path = Path(raw).expanduser()
        try:
            if not path.exists():
                return None
        except OSError:  # a name too long for the file system: no such file (the load says so)
            return None
        path = path.resolve()
        digest.update(f"spec\0{namespace}\0{path}\0".encode())
        for file in _files(path):
            with file.open("rb") as handle:
                content = hashlib.file_digest(handle, "sha256").digest()
            digest.update(f"{file.relative_to(path) if file != path else ''}\0".encode() + content)
    return digest.hexdigest()[:32]
