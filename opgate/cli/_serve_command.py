"""``opgate serve``: the gateway as an MCP server, over stdio or streamable HTTP."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._gateway_factory import GatewaySetupError, cli_config, make_gateway
from ._named_only import is_unbuilt

if TYPE_CHECKING:
    from rich.console import Console
    from opgate.mcp_server import HttpAccess


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "serve",
        help="serve the gateway to MCP hosts (stdio, or HTTP with --http)",
        description="Serve help, exec, batch and search as MCP tools. Over stdio by default; --http serves streamable HTTP on loopback. Logs go to standard error.",
    )
    if is_unbuilt(parser):
        return parser  # another command was named: the configuration's names below need not load
    from opgate.core.config import DEFAULT_RATE_BURST, DEFAULT_RATE_LIMIT, SERVE_MODES

    parser.add_argument("--http", metavar="HOST:PORT", help="serve streamable HTTP at http://HOST:PORT/mcp (HOST defaults to 127.0.0.1; port 0 picks a free one)")
    parser.add_argument("--allow-write", action="store_true", help="let write ops write; ops that need confirmation still ask the person")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN", help="with --http: a browser origin allowed besides loopback ones (https://app.example); repeatable")
    parser.add_argument("--auth", action="store_true", default=None, help="with --http: ask every caller for a bearer token (on by itself once the workspace has tokens; see opgate token)")
    parser.add_argument("--allow-host", action="append", default=[], type=_host, metavar="NAME", help="with --http: a Host name accepted besides loopback ones, such as the reverse proxy's (opgate.example.com); repeatable")
    parser.add_argument("--public-url", type=_public_url, metavar="URL", help="with --http: the URL callers use for /mcp, such as https://opgate.example.com/mcp behind a proxy (named in the token metadata)")
    parser.add_argument("--rate-limit", type=_rate, default=None, metavar="PER_SECOND", help=f"with authentication: requests per second each caller may sustain, 0 for no limit (default: {DEFAULT_RATE_LIMIT:g})")
    parser.add_argument("--rate-burst", type=_burst, default=None, metavar="N", help=f"with authentication: requests a caller may send at once (default: {DEFAULT_RATE_BURST})")
    parser.add_argument("--confirm-timeout", type=_seconds, default=None, metavar="SECONDS", help="how long a call waits for the person's confirmation before it is refused (default: 600)")
    parser.add_argument(
        "--mode", choices=SERVE_MODES, default=None,
        help="the tools offered: gateway (help, exec, batch, search; the default), hybrid (typed lane + list_tools/run_tool), "
             "full or deferred (one tool per op), protocol (list, search, expand, call); also 'mode' in opgate.toml",
    )
    parser.add_argument("--mcp-config", action="store_true", help="print the JSON to paste into an MCP client's configuration, and exit")
    parser.set_defaults(run=run_serve)
    return parser


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, not {text}")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 100_000:
        raise argparse.ArgumentTypeError(f"requests per second from 0 (no limit) to 100000, not {text}")
    return value


def _host(text: str) -> str:
    from opgate.core.config import is_host_name

    if not is_host_name(text):
        raise argparse.ArgumentTypeError(f"a host name such as opgate.example.com (no scheme, no port), not {text!r}")
    return text


def _public_url(text: str) -> str:
    from opgate.core.config import is_public_url

    if not is_public_url(text):
        raise argparse.ArgumentTypeError(f"an http:// or https:// URL ending in the MCP path, such as https://opgate.example.com/mcp, not {text!r}")
    return text


def _burst(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise argparse.ArgumentTypeError(f"a whole number of requests from 1 to 100000, not {text}")
    return int(text)


def http_access(args: argparse.Namespace, server) -> HttpAccess:
    """Who the HTTP server admits, from the flags, then ``[serve]`` in opgate.toml, then the workspace's tokens."""
    from opgate.core.access import TokenBook, shared_rate
    from opgate.core.config import DEFAULT_RATE_BURST, DEFAULT_RATE_LIMIT
    from opgate.mcp_server import HttpAccess

    serve = cli_config(args).serve
    book = TokenBook(server.gateway.store)
    wanted = args.auth or serve.auth
    if wanted is None:
        wanted = book.has_live_tokens()
    elif wanted and not book.has_live_tokens():
        print("opgate serve: authentication is on but the workspace has no live token: every call is refused until one is made (opgate token create)", file=sys.stderr)
    rate = args.rate_limit if args.rate_limit is not None else serve.rate_limit
    burst = args.rate_burst if args.rate_burst is not None else serve.rate_burst
    return HttpAccess(
        tokens=book if wanted else None, public_url=args.public_url or serve.public_url,
        allowed_origins=(*serve.allowed_origins, *(o.rstrip("/") for o in args.allow_origin)),
        allowed_hosts=(*serve.allowed_hosts, *args.allow_host),
        rate_limit=DEFAULT_RATE_LIMIT if rate is None else rate, rate_burst=DEFAULT_RATE_BURST if burst is None else burst,
        shared_rate=shared_rate(server.gateway.store),
    )


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
    if getattr(args, "mode", None):
        argv += ["--mode", args.mode]
    return argv


def mcp_config(args: argparse.Namespace) -> dict[str, Any]:
    """``{"mcpServers": {"opgate": ...}}``: this interpreter running opgate over stdio, or the URL with --http."""
    if args.http:
        from opgate.mcp_server import HttpAddress

        address = HttpAddress.parse(args.http)
        public_url = getattr(args, "public_url", None)
        if address.port == 0 and not public_url:
            raise ValueError("--mcp-config needs the fixed port the server will listen on, not 0")
        entry: dict[str, Any] = {"type": "http", "url": public_url or f"http://{address.url_host}:{address.port}/mcp"}
        if getattr(args, "auth", None):
            # A placeholder, never a real token: each person pastes the one `opgate token create` gave them.
            entry["headers"] = {"Authorization": "Bearer <token from opgate token create>"}
        return {"mcpServers": {"opgate": entry}}
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
    import logging

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="opgate serve: %(levelname)s %(name)s: %(message)s")
    from opgate.mcp_server import CONFIRMATION_TIMEOUT, GatewayMCPServer, HttpAddress, UnsafeBind, serve_http, serve_stdio

    try:
        address = HttpAddress.parse(args.http) if args.http else None
    except ValueError as exc:
        print(f"opgate serve: {exc}", file=sys.stderr)
        return 2
    from opgate.core.store import StoreError

    timeout = args.confirm_timeout if args.confirm_timeout is not None else CONFIRMATION_TIMEOUT
    mode = args.mode or cli_config(args).mode or "gateway"
    try:
        server = GatewayMCPServer(lambda **options: make_gateway(args, **options), allow_write=args.allow_write, confirmation_timeout=timeout, mode=mode)
    except (StoreError, OSError) as exc:
        print(f"opgate serve: cannot open the workspace: {exc}", file=sys.stderr)
        return 2
    stopped_by = None
    try:
        if address is None:
            stopped_by = serve_stdio(server)  # SIGTERM or SIGHUP: the status a shell gives a process that signal ended
        else:
            serve_http(server, address, access=http_access(args, server))
    except (UnsafeBind, GatewaySetupError) as exc:
        print(f"opgate serve: {exc}", file=sys.stderr)
        return 2
    except (OSError, StoreError) as exc:
        print(f"opgate serve: {exc}", file=sys.stderr)
        return 1
    finally:
        server.close()
    return 128 + stopped_by if stopped_by else 0
