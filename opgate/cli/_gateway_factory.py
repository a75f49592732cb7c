"""Building the Gateway a command runs against, from the global options."""

from __future__ import annotations

import argparse

from opgate.core import Gateway


def make_gateway(args: argparse.Namespace) -> Gateway:
    """The built-in catalogue unless ``--catalog`` names others; ``--context`` narrows what is visible."""
    if args.catalog:
        return Gateway.from_catalogs(args.catalog, context=args.context)
    return Gateway(context=args.context)
