"""Building the Gateway a command runs against, from the global options."""

from __future__ import annotations

import argparse
from typing import Any

from opgate.core import Gateway


def make_gateway(args: argparse.Namespace, **options: Any) -> Gateway:
    """The built-in catalogue unless ``--catalog`` names others; ``--context`` narrows what is visible; ``--db`` picks the workspace."""
    options.setdefault("context", args.context)
    options.setdefault("db_path", args.db)
    if args.catalog:
        return Gateway.from_catalogs(args.catalog, **options)
    return Gateway(**options)
