"""``opgate token``: the bearer tokens that let callers into ``opgate serve --http``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from ._gateway_factory import configured_database

if TYPE_CHECKING:
    from rich.console import Console


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "token",
        help="bearer tokens for the HTTP server (create, list, revoke)",
        description="Manage the bearer tokens of the workspace's HTTP server. Once the workspace has a token, `opgate serve --http` asks every caller for one.",
    )
    actions = parser.add_subparsers(dest="token_action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="make a token and print it once", description="Make a token for a person or agent. The token is printed once; only its digest is kept.")
    create.add_argument("--name", required=True, help="who the token is for (shown in the call log): lower-case letters, digits, . _ @ -")
    create.add_argument("--role", required=True, choices=("reader", "writer", "approver"), help="reader: reads and dry-runs; writer: also writes; approver: also answers confirmations")
    create.add_argument("--json", action="store_true", help="print {name, role, token, created_at} as JSON")
    listing = actions.add_parser("list", help="the tokens and their roles (never the tokens themselves)")
    listing.add_argument("--json", action="store_true", help="print the list as JSON")
    revoke = actions.add_parser("revoke", help="refuse a token from now on", description="Revoke a token: the server refuses it from the next request on.")
    revoke.add_argument("name", help="the token's name")
    parser.set_defaults(run=run_token)
    return parser


def run_token(args: argparse.Namespace, console: Console) -> int:
    from rich.console import Console
    from rich.text import Text

    from opgate.core.access import TokenBook, TokenError
    from opgate.core.store import StoreError, open_store

    errors = Console(file=sys.stderr, highlight=False, soft_wrap=True)
    try:
        store = open_store(configured_database(args))
    except (StoreError, OSError) as exc:
        errors.print(Text.assemble(("opgate token: ", "red"), f"cannot open the workspace: {exc}"))
        return 2
    try:
        book = TokenBook(store)
        if args.token_action == "create":
            return _create(book, args, console, errors)
        if args.token_action == "list":
            return _list(book, args, console)
        row = book.revoke(args.name)
        console.print(Text(f"revoked {row['name']} ({row['role']}): the server refuses it from now on"))
        return 0
    except (TokenError, StoreError) as exc:
        errors.print(Text.assemble(("opgate token: ", "red"), str(exc)))
        return 2
    finally:
        store.close()


def _create(book, args: argparse.Namespace, console: Console, errors: Console) -> int:
    from rich.text import Text

    issued = book.create(args.name, args.role)
    if args.json:
        console.file.write(json.dumps({"name": issued.name, "role": issued.role, "token": issued.secret, "created_at": issued.created_at}) + "\n")
        return 0
    console.file.write(issued.secret + "\n")
    errors.print(Text(f"token for {issued.name} ({issued.role}) above; it is shown only now. Callers send it as the header  Authorization: Bearer <token>"))
    return 0


def _list(book, args: argparse.Namespace, console: Console) -> int:
    from rich.table import Table
    from rich.text import Text

    rows = book.list()
    if args.json:
        console.file.write(json.dumps(rows) + "\n")
        return 0
    if not rows:
        console.print(Text("no tokens: the HTTP server takes unauthenticated callers on loopback only. Make one with opgate token create --name NAME --role ROLE"))
        return 0
    table = Table("name", "role", "created", "revoked")
    for row in rows:
        table.add_row(Text(row["name"]), row["role"], row["created_at"], row["revoked_at"] or "")
    console.print(table)
    return 0
