"""``opgate db migrate`` and ``opgate db copy``: the workspace database itself."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ._options import workspace_path

if TYPE_CHECKING:
    from rich.console import Console


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "db", help="the workspace database: migrate, copy",
        description="Manage the workspace database (an SQLite file or a postgresql:// URL).",
    )
    actions = parser.add_subparsers(dest="db_action", metavar="ACTION", required=True)
    migrate = actions.add_parser("migrate", help="bring the database (--db, $OPGATE_DB or the configuration's) to this opgate's schema")
    migrate.set_defaults(run=run_migrate)
    copy = actions.add_parser("copy", help="copy a workspace into an empty database and check the counts")
    copy.add_argument("--from", dest="source", required=True, type=workspace_path, metavar="PATH_OR_URL", help="the workspace to copy")
    copy.add_argument("--to", dest="target", required=True, type=workspace_path, metavar="PATH_OR_URL", help="an empty (or new) workspace to copy into")
    copy.set_defaults(run=run_copy)
    return parser


def database_location(args: argparse.Namespace) -> str:
    """``--db``, else ``$OPGATE_DB``, else the configuration's ``database``, else the default file."""
    from opgate.core.store import default_path

    from ._gateway_factory import configured_database

    configured = configured_database(args)
    return str(configured if configured is not None else default_path())


def run_migrate(args: argparse.Namespace, console: Console) -> int:
    from rich.text import Text

    from opgate.core.store import StoreError
    from opgate.core.store._locate import connect_store

    location = database_location(args)
    try:
        with connect_store(location) as store:
            console.print(Text(f"{store.location} is at schema version {store.schema_version}"))
    except StoreError as exc:
        console.print(Text.assemble(("cannot migrate: ", "red"), str(exc)))
        return 2
    return 0


def run_copy(args: argparse.Namespace, console: Console) -> int:
    from rich.text import Text

    from opgate.core.store import StoreError
    from opgate.core.store._copy import copy_workspace

    try:
        report = copy_workspace(args.source, args.target)
    except StoreError as exc:
        console.print(Text.assemble(("cannot copy: ", "red"), str(exc)))
        return 2
    held = ", ".join(f"{count} {table.replace('_', ' ')}" for table, count in report.target.items() if count) or "nothing"
    console.print(Text(f"copied {held}; every table's count matches its source"))
    return 0
