"""Building the Gateway a command runs against, from the global options."""

from __future__ import annotations

import argparse
import atexit
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opgate.core import Gateway
    from opgate.core.config import OpgateConfig


class GatewaySetupError(Exception):
    """The options do not make a usable gateway (an unknown context, catalogues with no ops)."""


def cli_config(args: argparse.Namespace) -> OpgateConfig:
    """The configuration (``--config``, ``./opgate.toml``, the user's folder); its problems stop the command."""
    from opgate.core.config import load_config

    try:
        return load_config(getattr(args, "config", None))
    except ValueError as exc:
        # ConfigError is a ValueError; its module (the checker) loads only when there is a file to check.
        from opgate.core.config import ConfigError

        if not isinstance(exc, ConfigError):
            raise
        from opgate.core.echo_text import shortened_words

        raise GatewaySetupError(f"the configuration has {len(exc.problems)} problem{'s' if len(exc.problems) > 1 else ''}:\n" + "\n".join(f"  {shortened_words(str(p))}" for p in exc.problems)) from None


def configured_database(args: argparse.Namespace) -> Any:
    """The workspace to use: ``--db``, else ``$OPGATE_DB``, else the configuration's ``database`` (None: the default file)."""
    if getattr(args, "db", None):
        return args.db
    if os.environ.get("OPGATE_DB", "").strip():
        return os.environ["OPGATE_DB"]
    return cli_config(args).database


def make_upstreams(paths: list[str], config: OpgateConfig | None = None) -> Any:
    """The upstream MCP servers of ``--mcp-servers`` files and of opgate.toml (nothing connects yet), closed when the command exits."""
    from opgate.core.executors.mcp import UpstreamConfigError, Upstreams

    try:
        upstreams = Upstreams.from_files(paths, configured=config.mcp_servers if config else None, configured_source=str(config.source) if config and config.source else "opgate.toml")
    except UpstreamConfigError as exc:
        raise GatewaySetupError("the MCP upstream configuration has problems:\n  " + "\n  ".join(exc.problems)) from None
    # Commands end by returning from main(); the servers this process started must end with it.
    atexit.register(upstreams.close)
    return upstreams


def make_gateway(args: argparse.Namespace, **options: Any) -> Gateway:
    """The built-in catalogue unless ``--catalog`` names others; ``--context`` narrows what is visible; ``--db`` picks the workspace.

    The configuration file adds its upstreams and gives the default database
    and context. Problems found in the catalogues are printed to stderr;
    catalogues that give no op at all, or an unknown context, stop the command.
    """
    from opgate.core import Gateway

    config = cli_config(args)
    options.setdefault("context", args.context or config.context)
    options.setdefault("db_path", args.db or os.environ.get("OPGATE_DB", "").strip() or config.database)
    ranker = getattr(args, "search", None) or os.environ.get("OPGATE_SEARCH") or config.search or "default"
    if ranker == "semantic":
        from opgate.core.search import semantic_available
        from opgate.core.search._semantic import INSTALL_HINT

        if not semantic_available():
            raise GatewaySetupError(f"--search semantic needs the 'semantic' extra: {INSTALL_HINT}")
    options.setdefault("search", ranker)
    if (getattr(args, "mcp_servers", None) or config.mcp_servers) and "upstreams" not in options:
        options["upstreams"] = make_upstreams(getattr(args, "mcp_servers", None) or [], config)
    try:
        # The built-in catalogue alone goes through the on-disk cache too: a command then reads the
        # registry and search index it needs instead of building them (bench/bench_cli.py).
        gateway = Gateway.from_catalogs(args.catalog, include_builtin=not args.catalog, config=config, **options)
    except ValueError as exc:  # an unknown context name or ranker
        if options.get("upstreams") is not None:
            options["upstreams"].close()
        if not args.context and config.context and config.source and options["context"] == config.context:
            raise GatewaySetupError(f"{config.source}: context: {exc}") from None  # the person must know which file to fix
        raise GatewaySetupError(str(exc)) from None
    if args.catalog or config.http_upstreams:
        errors = gateway.registry.errors()
        for problem in errors[:20]:
            print(f"opgate: {problem}", file=sys.stderr)
        if len(errors) > 20:
            print(f"opgate: … and {len(errors) - 20} more problems", file=sys.stderr)
        if len(gateway.registry) == 0:
            gateway.close()
            raise GatewaySetupError("the catalogues given with --catalog hold no usable op")
    return gateway
