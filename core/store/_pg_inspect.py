"""What a PostgreSQL workspace holds, read before ``reset_demo`` replaces it.

As for a file: a database without opgate's schema is refused and left as it
was (nothing is created in it), and one migrated by a newer opgate is too.
"""

from __future__ import annotations

from ._errors import NotAWorkspace, SchemaTooNew
from ._pg_conn import connect_once, redacted, translated
from ._pg_migrate import pg_migrations, schema_version
from ._workspace_check import COUNTED_TABLES, WorkspaceContents


def inspect_pg_workspace(url: str) -> WorkspaceContents:
    """Row counts and project ids of the workspace at ``url``; :class:`NotAWorkspace` if it is none."""
    where = redacted(url)
    conn = connect_once(url)
    try:
        with translated():
            version = schema_version(conn)
            if version < 1:
                raise NotAWorkspace(f"{where} has no opgate schema, so it is not an opgate workspace; refusing to touch it. "
                                    "Run `opgate db migrate --db URL` first if it is meant to become one.")
            latest = pg_migrations()[-1].version
            if version > latest:
                raise SchemaTooNew(version, latest, where)
            counts = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in COUNTED_TABLES}
            project_ids = tuple(row[0] for row in conn.execute("SELECT id FROM projects ORDER BY id"))
    finally:
        conn.close()
    return WorkspaceContents(where, counts, project_ids)
