"""The workspace store: the ontology of docs/ontology.md in an embedded database.

Handlers program against :class:`OntologyStore` and its transactions; the
backends are SQLite (:class:`SQLiteStore`, on apsw, a file) and PostgreSQL
(:class:`PostgresStore`, on psycopg, a ``postgresql://`` URL; the
``postgres`` extra). :func:`connect_store` picks one from a location. See
docs/store.md.
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
    from ._copy import CopyReport, copy_workspace
    from ._locate import connect_store, is_postgres_url
    from ._pg_store import PostgresStore
    from ._sqlite_store import SQLiteStore
    from ._workspace_check import WorkspaceContents, inspect_workspace

# The SQLite backend (apsw, migrations) and the demo loader (platformdirs) load
# on first use: the kinds, errors and protocol are all most importers need.
_LAZY = {
    "SQLiteStore": "._sqlite_store",
    "PostgresStore": "._pg_store",
    "connect_store": "._locate",
    "is_postgres_url": "._locate",
    "copy_workspace": "._copy",
    "CopyReport": "._copy",
    **{name: "._demo" for name in ("default_path", "demo_fixture_path", "load_demo", "load_workspace", "open_store", "reset_demo")},
    **{name: "._workspace_check" for name in ("WorkspaceContents", "inspect_workspace")},
}


__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)


__all__ = [
    "COUNT_CAP",
    "CUT_MARKER",
    "ChangeSet",
    "Conflict",
    "CopyReport",
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
    "PostgresStore",
    "REL_VALUES",
    "Removal",
    "SQLiteStore",
    "SchemaTooNew",
    "StoreBusy",
    "StoreError",
    "StoreTransaction",
    "StoreWriteTransaction",
    "WorkspaceContents",
    "connect_store",
    "copy_workspace",
    "default_path",
    "demo_fixture_path",
    "inspect_workspace",
    "is_postgres_url",
    "load_demo",
    "load_workspace",
    "open_store",
    "reset_demo",
]
