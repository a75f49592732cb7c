"""The workspace store: the ontology of docs/ontology.md in an embedded database.

Handlers program against :class:`OntologyStore` and its transactions; the
SQLite backend (:class:`SQLiteStore`, on apsw) is the only implementation so
far. See docs/store.md.
"""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes
from ._changes import ChangeSet
from ._errors import Conflict, InvalidValue, NotAWorkspace, NotFound, SchemaTooNew, StoreBusy, StoreError
from ._kinds import DOCUMENT_ROLES, ENTITY_KINDS, KINDS, REL_VALUES, KindSpec
from ._nesting import CUT_MARKER, MAX_VALUE_DEPTH
from ._protocol import COUNT_CAP, OntologyStore, Page, Removal, StoreTransaction, StoreWriteTransaction

if _typing.TYPE_CHECKING:
    from ._demo import default_path, demo_fixture_path, load_demo, load_workspace, open_store, reset_demo
    from ._sqlite_store import SQLiteStore
    from ._workspace_check import WorkspaceContents, inspect_workspace

# The SQLite backend (apsw, migrations) and the demo loader (platformdirs) load
# on first use: the kinds, errors and protocol are all most importers need.
_LAZY = {
    "SQLiteStore": "._sqlite_store",
    **{name: "._demo" for name in ("default_path", "demo_fixture_path", "load_demo", "load_workspace", "open_store", "reset_demo")},
    **{name: "._workspace_check" for name in ("WorkspaceContents", "inspect_workspace")},
}


__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)


__all__ = [
    "COUNT_CAP",
    "CUT_MARKER",
    "ChangeSet",
    "Conflict",
    "DOCUMENT_ROLES",
    "ENTITY_KINDS",
    "InvalidValue",
    "KINDS",
    "KindSpec",
    "MAX_VALUE_DEPTH",
    "NotAWorkspace",
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
    "WorkspaceContents",
    "default_path",
    "demo_fixture_path",
    "inspect_workspace",
    "load_demo",
    "load_workspace",
    "open_store",
    "reset_demo",
]
