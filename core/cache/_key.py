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
import os
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..catalog._sources import split_catalog_spec

CORE = Path(__file__).resolve().parents[1]
# The code and data a registry (and the search index over it) is made with.
_SHAPING = ("catalog", "registry", "search", "cache", "_builtin.py", "_schema_check.py", "_ref_cycles.py", "executors/_defaults.py", "safe_json.py")
_SKIPPED_PARTS = ("__pycache__", ".git")


def _files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    # os.walk lists what Path.rglob("*") lists (neither enters a linked folder) about 8x faster: every command computes this key.
    found = []
    for folder, folders, names in os.walk(path):
        folders[:] = [name for name in folders if name not in _SKIPPED_PARTS]
        found += (Path(folder, name) for name in names)
    return sorted(p for p in found if p.is_file() and not any(part in _SKIPPED_PARTS for part in p.parts))


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A hash of opgate's version and of the source that turns catalogues into a registry and an index."""
    from opgate import __version__

    digest = hashlib.sha256(__version__.encode())
    fixtures = CORE.parent / "fixtures" / "catalog"
    for root in [*(CORE / name for name in _SHAPING), fixtures]:
        for file in _files(root) if root.exists() else []:
            digest.update(str(file.relative_to(root.parent)).encode() + b"\0")
            digest.update(file.read_bytes())
    return digest.hexdigest()


def catalog_key(specs: Iterable[str | Path], *, include_builtin: bool, policies: Mapping[str, Any] | None = None) -> str | None:
    """The key of a registry built from ``specs`` (``NAME=PATH`` allowed); None if a path does not exist."""
    digest = hashlib.sha256(code_fingerprint().encode())
    digest.update(f"builtin={include_builtin}\0policies={sorted((policies or {}).items())!r}\0".encode())
    for spec in specs:
        namespace, raw = split_catalog_spec(spec) if isinstance(spec, str) else (None, str(spec))
        path = Path(raw).expanduser()
        if not path.exists():
            return None
        path = path.resolve()
        digest.update(f"spec\0{namespace}\0{path}\0".encode())
        for file in _files(path):
            with file.open("rb") as handle:
                content = hashlib.file_digest(handle, "sha256").digest()
            digest.update(f"{file.relative_to(path) if file != path else ''}\0".encode() + content)
    return digest.hexdigest()[:32]
