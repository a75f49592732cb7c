"""Package attributes that load their module on first use.

A package re-exports its public names, but some live in modules that are
costly to import (the validator loads jsonschema, the SQLite backend loads
apsw): those are named in a table and imported when first read, so that
commands which never use them never pay for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_attributes(package: str, namespace: dict[str, Any], table: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``table[name]`` (relative to ``package``) and caches the value in ``namespace``."""

    def __getattr__(name: str) -> Any:
        if name in table:
            value = getattr(import_module(table[name], package), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
