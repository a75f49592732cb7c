"""``opgate serve``: the gateway as an MCP server, over stdio or streamable HTTP."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from ._gateway_factory import make_gateway


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "serve",
        help="serve the gateway to MCP hosts (stdio, or HTTP with --http)",
        description="Serve help, exec, batch and search as MCP tools. Over stdio by default; --http serves streamable HTTP on loopback. Logs go to standard error.",
    )
    parser.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1; port 0 picks a free one)")
    parser.add_argument("--allow-write", action="store_true", help="let write ops write; ops that need confirmation still ask the person")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN", help="with --http: a browser origin allowed besides loopback ones (https://app.example); repeatable")
    parser.add_argument("--confirm-timeout", type=_seconds, default=None, metavar="SECONDS", help="how long a call waits for the person's confirmation before it is refused (default: 600)")
    parser.add_argument("--mcp-config", action="store_true", help="print the JSON to paste into an MCP client's configuration, and exit")
    parser.set_defaults(run=run_serve)
    return parser


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text}")
    return value


def _absolute(path: str) -> str:
    if path.startswith(("postgresql://", "postgres://")):
        return path  # a database URL, not a file
    name, sep, rest = path.partition("=")
    if sep and name.isidentifier():
        return f"{name}={Path(rest).expanduser().resolve()}"
    return str(Path(path).expanduser().resolve())


def server_arguments(args: argparse.Namespace) -> list[str]:
    """The ``serve`` command line a host should run: paths made absolute, since hosts start servers elsewhere."""
    argv = ["-m", "opgate"]
    if args.db:
        argv += ["--db", _absolute(args.db)]
    for catalog in args.catalog:
        argv += ["--catalog", _absolute(catalog)]
    for servers in getattr(args, "mcp_servers", None) or []:
        argv += ["--mcp-servers", str(Path(servers).expanduser().resolve())]
    if args.context:
        argv += ["--context", args.context]
    argv.append("serve")
    if args.allow_write:
        argv.append("--allow-write")
    if args.confirm_timeout is not None:
        argv += ["--confirm-timeout", str(args.confirm_timeout)]
    return argv


def mcp_config(args: argparse.Namespace) -> dict[str, Any]:
    """``{"mcpServers": {"opgate": ...}}``: this interpreter running opgate over stdio, or the URL with --http."""
    if args.http:
        from opgate.mcp_server import HttpAddress

        address = HttpAddress.parse(args.http)
        if address.port == 0:
            raise ValueError("--mcp-config needs the fixed port the server will listen on, not 0")
        return {"mcpServers": {"opgate": {"type": "http", "url": f"http://{address.url_host}:{address.port}/mcp"}}}
    return {"mcpServers": {"opgate": {"command": sys.executable, "args": server_arguments(args)}}}


def run_serve(args: argparse.Namespace, console: Console) -> int:
    if args.mcp_config:
        try:
            config = mcp_config(args)
        except ValueError as exc:
            print(f"opgate serve: {exc}", file=sys.stderr)
            return 2
        console.file.write(json.dumps(config, indent=2) + "\n")
        return 0
    # Standard output is the protocol over stdio: every word for people goes to standard error.
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="opgate serve: %(levelname)s %(name)s: %(message)s")
    from opgate.mcp_server import CONFIRMATION_TIMEOUT, GatewayMCPServer, HttpAddress, serve_http, serve_stdio

    try:
        address = HttpAddress.parse(args.http) if args.http else None
    except ValueError as exc:
        print(f"opgate serve: {exc}", file=sys.stderr)
        return 2
    from opgate.core.store import StoreError

    timeout = args.confirm_timeout if args.confirm_timeout is not None else CONFIRMATION_TIMEOUT
    try:
        server = GatewayMCPServer(lambda **options: make_gateway(args, **options), allow_write=args.allow_write, confirmation_timeout=timeout)
    except (StoreError, OSError) as exc:
        print(f"opgate serve: cannot open the workspace: {exc}", file=sys.stderr)
        return 2
    try:
        if address is None:
            serve_stdio(server)
        else:
            serve_http(server, address, allowed_origins=args.allow_origin)
    except OSError as exc:
        print(f"opgate serve: {exc}", file=sys.stderr)
        return 1
    finally:
        server.close()
    return 0
