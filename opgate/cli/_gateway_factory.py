"""Building the Gateway a command runs against, from the global options."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from opgate.core import Gateway


class GatewaySetupError(Exception):
    """The options do not make a usable gateway (an unknown context, catalogues with no ops)."""


def make_gateway(args: argparse.Namespace, **options: Any) -> Gateway:
    """The built-in catalogue unless ``--catalog`` names others; ``--context`` narrows what is visible; ``--db`` picks the workspace.

    Problems found in the catalogues are printed to stderr; catalogues that
    give no op at all, or an unknown context, stop the command.
    """
    options.setdefault("context", args.context)
    options.setdefault("db_path", args.db)
    ranker = getattr(args, "search", None) or os.environ.get("OPGATE_SEARCH") or "default"
    if ranker == "semantic":
        from opgate.core.search import semantic_available
        from opgate.core.search._semantic import INSTALL_HINT

        if not semantic_available():
            raise GatewaySetupError(f"--search semantic needs the 'semantic' extra: {INSTALL_HINT}")
    options.setdefault("search", ranker)
    try:
        gateway = Gateway.from_catalogs(args.catalog, **options) if args.catalog else Gateway(**options)
    except ValueError as exc:  # an unknown context name or ranker
        raise GatewaySetupError(str(exc)) from None
    if args.catalog:
        errors = [p for p in gateway.registry.problems if p.severity == "error"]
        for problem in errors[:20]:
            print(f"opgate: {problem}", file=sys.stderr)
        if len(errors) > 20:
            print(f"opgate: … and {len(errors) - 20} more problems", file=sys.stderr)
        if len(gateway.registry) == 0:
            raise GatewaySetupError("the catalogues given with --catalog hold no usable op")
    return gateway
