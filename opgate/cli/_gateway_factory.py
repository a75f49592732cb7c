"""Building the Gateway a command runs against, from the global options."""

from __future__ import annotations

import argparse
import atexit
import sys
from typing import Any

from opgate.core import Gateway


class GatewaySetupError(Exception):
    """The options do not make a usable gateway (an unknown context, catalogues with no ops)."""


def make_upstreams(paths: list[str]) -> Any:
    """The upstream MCP servers of ``--mcp-servers`` files (nothing connects yet), closed when the command exits."""
    from opgate.core.executors.mcp import UpstreamConfigError, Upstreams

    try:
        upstreams = Upstreams.from_files(paths)
    except UpstreamConfigError as exc:
        raise GatewaySetupError("the --mcp-servers configuration has problems:\n  " + "\n  ".join(exc.problems)) from None
    # Commands end by returning from main(); the servers this process started must end with it.
    atexit.register(upstreams.close)
    return upstreams


def make_gateway(args: argparse.Namespace, **options: Any) -> Gateway:
    """The built-in catalogue unless ``--catalog`` names others; ``--context`` narrows what is visible; ``--db`` picks the workspace.

    Problems found in the catalogues are printed to stderr; catalogues that
    give no op at all, or an unknown context, stop the command.
    """
    options.setdefault("context", args.context)
    options.setdefault("db_path", args.db)
    if getattr(args, "mcp_servers", None) and "upstreams" not in options:
        options["upstreams"] = make_upstreams(args.mcp_servers)
    try:
        gateway = Gateway.from_catalogs(args.catalog, **options) if args.catalog else Gateway(**options)
    except ValueError as exc:  # an unknown context name
        if options.get("upstreams") is not None:
            options["upstreams"].close()
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
