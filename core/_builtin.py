"""The built-in catalogue and its context table, shipped in ``opgate.fixtures``."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from ._record import replace
from ._scopes import ContextTable
from .catalog._sources import CatalogLoad, load_json_file
from .catalog._tool import Binding

STORE = Binding("store")

CATALOG_FILES = ("onto_read.json", "onto_write.json", "util.json")


def fixtures_dir() -> Path:
    """The folder of the shipped fixtures (installed or in a source checkout)."""
    # The package's own folder: it is installed as files (never zipped), and importlib.resources
    # costs a command line ~10 ms of imports to say the same.
    from opgate import fixtures

    return Path(fixtures.__file__).parent


def builtin_catalog_loads() -> list[CatalogLoad]:
    """The built-in tools. Their namespace is empty: the ontology naming rules apply to them.

    Their schemas are marked checked: tests/unit/test_import_cost.py proves
    each passes the registry's schema check unchanged, so a command that only
    reads help need not load jsonschema to check them again.
    """
    folder = fixtures_dir() / "catalog"
    loads = [load_json_file(folder / name, namespace="") for name in CATALOG_FILES]
    for load in loads:
        load.tools = [replace(tool, binding=STORE) for tool in load.tools]
        load.checked = not load.problems
    return loads


@lru_cache(maxsize=1)
def builtin_contexts() -> ContextTable:
    path = fixtures_dir() / "contexts.json"
    if not path.is_file():
        return ContextTable()
    return ContextTable.from_mapping(json.loads(path.read_text(encoding="utf-8")))
