"""The workspace store: the ontology of docs/ontology.md in an embedded database.

Handlers program against :class:`OntologyStore` and its transactions; the
SQLite backend (:class:`SQLiteStore`, on apsw) is the only implementation so
far. See docs/store.md.
"""

import typing as _typing

from ._changes import ChangeSet
from ._errors import Conflict, InvalidValue, NotFound, SchemaTooNew, StoreBusy, StoreError
from ._kinds import DOCUMENT_ROLES, ENTITY_KINDS, KINDS, REL_VALUES, KindSpec
from ._protocol import COUNT_CAP, OntologyStore, Page, Removal, StoreTransaction, StoreWriteTransaction

if _typing.TYPE_CHECKING:
    from ._demo import default_path, demo_fixture_path, load_demo, load_workspace, open_store, reset_demo
    from ._sqlite_store import SQLiteStore

# The SQLite backend (apsw, migrations) and the demo loader (platformdirs) load
# on first use: the kinds, errors and protocol are all most importers need.
_LAZY = {
    "SQLiteStore": "._sqlite_store",
    **{name: "._demo" for name in ("default_path", "demo_fixture_path", "load_demo", "load_workspace", "open_store", "reset_demo")},
}


def __getattr__(name: str) -> _typing.Any:
    if name in _LAZY:
        from importlib import import_module

        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "COUNT_CAP",
    "ChangeSet",
    "Conflict",
    "DOCUMENT_ROLES",
    "ENTITY_KINDS",
    "InvalidValue",
    "KINDS",
    "KindSpec",
    "NotFound",
    "OntologyStore",
    "Page",
    "REL_VALUES",
    "Removal",
    "SQLiteStore",
    "SchemaTooNew",
    "StoreBusy",
    "StoreError",
    "StoreTransaction",
    "StoreWriteTransaction",
    "default_path",
    "demo_fixture_path",
    "load_demo",
    "load_workspace",
    "open_store",
    "reset_demo",
]
