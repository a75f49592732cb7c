"""Where cached registries live, and writing and reading them.

The folder is ``OPGATE_CACHE_DIR`` if set (``off`` turns caching off), else
the configuration's ``cache_dir``, else the user's cache folder
(platformdirs: ``~/.cache/opgate`` on Linux). It must belong to the user
and be writable by nobody else, or it is not used: a cache another user
can write is a cache another user can choose answers for.

Each key has two files: ``KEY.registry`` (op names, kinds, tool names,
problems, version: what ``help`` needs) and ``KEY.records`` (each record on
its own line, read when a record is first needed). Both carry their SHA-256
(see :mod:`._file`).
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from .._log import LazyLogger
from ..registry._registry import Registry
from ._codec import problem_from_json, problem_to_json, record_to_json
from ._file import read_cache_file, write_cache_file
from ._lazy_registry import CachedRegistry, Rebuild, RecordSequence, light_columns

ENV_VAR = "OPGATE_CACHE_DIR"
DISABLED = ("off", "none", "0", "false")
KEEP_ENTRIES = 16
_log = LazyLogger("opgate.cache")  # logging loads on the first line logged


def _compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def default_cache_dir() -> Path:
    from .._user_dirs import user_cache_dir

    return user_cache_dir()


def private_folder(folder: Path) -> Path | None:
    """``folder`` made if needed (mode 700); None if it cannot be, or another user could write in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = folder.stat()
    except OSError as exc:
        _log.debug("cache folder %s unusable: %s", folder, exc)
        return None
    if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        _log.warning("not using the cache folder %s: it must belong to you and be writable by you alone", folder)
        return None
    return folder


class RegistryCache:
    """Registries on disk by key (see :func:`opgate.core.cache.catalog_key`)."""

    def __init__(self, folder: Path):
        self.folder = folder

    @classmethod
    def configured(cls, configured_dir: str | Path | None = None) -> RegistryCache | None:
        """The cache the environment or configuration asks for; None when turned off or unusable."""
        chosen = os.environ.get(ENV_VAR) or (str(configured_dir) if configured_dir else "")
        if chosen.strip().lower() in DISABLED:
            return None
        base = Path(chosen).expanduser() if chosen.strip() else default_cache_dir()
        folder = private_folder(base / "registry")
        return cls(folder) if folder is not None else None

    def _paths(self, key: str) -> tuple[Path, Path]:
        return self.folder / f"{key}.registry", self.folder / f"{key}.records"

    def load(self, key: str, rebuild: Rebuild) -> CachedRegistry | None:
        """The registry cached under ``key``, or None (absent, damaged, or from another format)."""
        light_path, records_path = self._paths(key)
        light = read_cache_file(light_path, kind="registry", key=key)
        if light is None:
            return None
        try:
            meta = light.json("meta")
            ops, kinds, tool_names = light.json("ops"), light.json("kinds"), light.json("tool_names")
            errors = [problem_from_json(p) for p in meta["errors"]]
            version, summaries = str(meta["version"]), dict(meta["group_summaries"])
        except (ValueError, TypeError, KeyError):
            return None
        if not (isinstance(ops, list) and len(ops) == len(kinds) == len(tool_names)) or ops != sorted(ops):
            return None

        def lines() -> list[bytes] | None:
            records = read_cache_file(records_path, kind="records", key=key)
            return bytes(records.section("records")).split(b"\n") if records is not None and "records" in records else None

        def rebuilt() -> Registry:
            registry = rebuild()
            self.store(key, registry)
            return registry

        def problems() -> list:
            return [problem_from_json(p) for p in light.json("problems")]

        return CachedRegistry(version=version, ops=ops, kinds=kinds, tool_names=tool_names, problems=problems, errors=errors, group_summaries=summaries, lines=lines, rebuild=rebuilt)

    def store(self, key: str, registry: Registry) -> None:
        """Write ``registry`` under ``key``. A cache that cannot be written is skipped, never an error."""
        light_path, records_path = self._paths(key)
        columns = light_columns(registry)
        meta = {"version": registry.version, "errors": [problem_to_json(p) for p in registry.errors()], "group_summaries": registry.group_summaries}
        records = b"\n".join(_compact(record_to_json(r)) for r in registry)
        try:
            write_cache_file(records_path, kind="records", key=key, sections={"records": records})
            problems = [problem_to_json(p) for p in registry.problems]
            sections = {"meta": _compact(meta), "problems": _compact(problems), **{name: _compact(value) for name, value in columns.items()}}
            write_cache_file(light_path, kind="registry", key=key, sections=sections)
            self._prune()
        except OSError as exc:
            _log.debug("registry cache not written to %s: %s", self.folder, exc)

    def load_index(self, key: str, registry: Registry) -> Any:
        """The default ranker's search index over ``registry`` cached under ``key``, or None."""
        from ..search import SearchIndex

        packed = read_cache_file(self.folder / f"{key}.search", kind="search", key=key)
        if packed is None or packed.extra.get("byteorder") != sys.byteorder:
            return None
        try:
            return SearchIndex.unpacked(RecordSequence(registry), packed.section, registry.group_summaries)
        except (ValueError, TypeError, KeyError) as exc:
            _log.debug("search index cache under %s unusable: %s", key, exc)
            return None

    def store_index(self, key: str, index: Any) -> None:
        try:
            write_cache_file(self.folder / f"{key}.search", kind="search", key=key, sections=index.pack(), extra={"byteorder": sys.byteorder})
        except OSError as exc:
            _log.debug("search index cache not written to %s: %s", self.folder, exc)

    def _prune(self) -> None:
        """Keep the newest :data:`KEEP_ENTRIES` keys: every catalogue edit makes a new one."""
        entries = sorted(self.folder.glob("*.registry"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in entries[KEEP_ENTRIES:]:
            for path in (old, old.with_suffix(".records"), old.with_suffix(".search")):
                path.unlink(missing_ok=True)
