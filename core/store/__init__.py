"""The workspace store: the ontology of docs/ontology.md in an embedded database.

Handlers program against :class:`OntologyStore` and its transactions; the
SQLite backend (:class:`SQLiteStore`, on apsw) is the only implementation so
far. See docs/store.md.
"""

from ._changes import ChangeSet
from ._demo import default_path, demo_fixture_path, load_demo, load_workspace, open_store, reset_demo
from ._errors import Conflict, InvalidValue, NotFound, SchemaTooNew, StoreBusy, StoreError
from ._kinds import DOCUMENT_ROLES, ENTITY_KINDS, KINDS, REL_VALUES, KindSpec
from ._protocol import COUNT_CAP, OntologyStore, Page, Removal, StoreTransaction, StoreWriteTransaction
from ._sqlite_store import SQLiteStore

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
