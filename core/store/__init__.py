"""The workspace store: the ontology of docs/ontology.md in an embedded database.

Handlers program against :class:`OntologyStore` and its transactions; the
SQLite backend (:class:`SQLiteStore`, on apsw) is the only implementation so
far. See docs/store.md.
"""

from ._changes import ChangeSet
from ._demo import default_path, demo_fixture_path, load_demo, load_workspace, open_store, reset_demo
from ._errors import Conflict, InvalidValue, NotAWorkspace, NotFound, SchemaTooNew, StoreBusy, StoreError
from ._nesting import CUT_MARKER, MAX_VALUE_DEPTH
from ._kinds import DOCUMENT_ROLES, ENTITY_KINDS, KINDS, REL_VALUES, KindSpec
from ._protocol import OntologyStore, Page, Removal, StoreTransaction, StoreWriteTransaction
from ._sqlite_store import SQLiteStore
from ._workspace_check import WorkspaceContents, inspect_workspace

__all__ = [
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
