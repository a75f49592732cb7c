"""Checking ``opgate.toml`` whole: every problem, each with its file, key and what was expected.

Nothing is half-applied: a file with a problem gives no configuration, and
every problem is reported at once (pydantic-settings and ruff are the bar).
An unknown key is an error, not silence: a misspelt ``base_ulr`` must not
quietly send requests to the document's production server.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._model import DEFAULT_RETRIES, DEFAULT_TIMEOUT_S, METHOD_SELECTOR, SERVE_MODES, AuthConfig, HttpUpstreamConfig, OpgateConfig
from ._headers import header_problem
from ._serve import ServeConfig, check_serve

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_KEYS = re.compile(r"^[a-z0-9_+\-]+(,[a-z0-9_+\-]+)*$")
_OP_KINDS = ("read", "write")
HTTP_METHODS = ("GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE")

TOP_KEYS = ("database", "context", "search", "mode", "cache_dir", "upstreams", "explorer", "serve")
HTTP_KEYS = ("openapi", "base_url", "auth", "headers", "timeout_s", "retries", "read_only", "confirm", "idempotency_header", "operations")
AUTH_KEYS = ("scheme", "username_env", "password_env", "token_env", "api_key_env")
OPERATION_KEYS = ("kind", "destructive", "confirm")
MCP_STDIO_KEYS = ("command", "args", "env", "cwd")
MCP_HTTP_KEYS = ("url", "headers")
MCP_COMMON_KEYS = ("trust_annotations", "confirm", "reads")
CONFIRM_GROUPS = ("destructive", "writes")
"""``confirm = "destructive"``: every tool that may destroy; ``"writes"``: every tool that is not a read."""
EXPLORER_KEYS = ("theme", "keymap")


@dataclass(frozen=True)
class ConfigProblem:
    """One thing wrong with the file: where (``upstreams.twilio.timeout_s``) and what was expected."""

    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key or '(top level)'}: {self.message}"


class ConfigError(ValueError):
    """The configuration file has problems; ``problems`` lists every one."""

    def __init__(self, problems: list[ConfigProblem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


@dataclass
class _Checker:
    file: Path
    problems: list[ConfigProblem] = field(default_factory=list)

    def problem(self, key: str, message: str) -> None:
        self.problems.append(ConfigProblem(str(self.file), key, message))

    def unknown(self, table: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
        for key in table:
            if key not in allowed:
                self.problem(_join(where, key), f"unknown key; expected one of: {', '.join(allowed)}")

    def table(self, value: Any, key: str) -> dict[str, Any]:
        if isinstance(value, dict):
            return value
        self.problem(key, f"expected a table, got {_kind(value)}")
        return {}

    def typed(self, table: Mapping[str, Any], key: str, where: str, check: Callable[[Any], bool], expected: str, default: Any = None) -> Any:
        if key not in table:
            return default
        value = table[key]
        if check(value):
            return value
        self.problem(_join(where, key), f"expected {expected}, got {_kind(value)} {_quoted(value)}")
        return default

    def path(self, table: Mapping[str, Any], key: str, where: str, *, must_exist: bool) -> Path | None:
        raw = self.typed(table, key, where, lambda v: isinstance(v, str) and v.strip() != "", "a path (a non-empty string)")
        if raw is None:
            return None
        if "\x00" in raw:
            self.problem(_join(where, key), "a path cannot hold a NUL character")
            return None
        try:
            path = Path(raw).expanduser()
        except RuntimeError:  # "~someone/..." for a user this machine does not know
            self.problem(_join(where, key), f"cannot find the home folder of {raw.split('/', 1)[0]!r}")
            return None
        if not path.is_absolute():
            path = self.file.parent / path  # relative to the file, not to wherever opgate was started
        if must_exist:
            try:
                found = path.exists()
            except OSError as exc:  # a name too long for the file system, a folder it may not enter
                self.problem(_join(where, key), f"cannot look for {_shown(path)}: {exc.strerror or exc}")
                return path
            if not found:
                self.problem(_join(where, key), f"no such file: {_shown(path)}")
        return path

    def string_map(self, table: Mapping[str, Any], key: str, where: str) -> dict[str, str]:
        value = self.typed(table, key, where, lambda v: isinstance(v, dict), "a table of strings", {})
        good = {}
        for name, item in value.items():
            if isinstance(item, str):
                good[name] = item
            else:
                self.problem(_join(where, key, name), f"expected a string, got {_kind(item)}")
        return good


def _quoted(value: Any, longest: int = 300) -> str:
    """A wrong value as a problem quotes it (escaped by repr): a megabyte of text is not repeated whole."""
    text = repr(value)
    return text if len(text) <= longest else f"{text[:longest]}… ({len(text):,} characters)"


def _shown(path: Path, longest: int = 300) -> str:
    """A path as a problem quotes it: a name thousands of characters long is not repeated whole."""
    text = str(path)
    return text if len(text) <= longest else f"{text[:longest]}… ({len(text):,} characters)"


def _join(*parts: str) -> str:
    return ".".join(p for p in parts if p)


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array", dict: "a table"}.get(type(value), type(value).__name__)


def _is_str(v: Any) -> bool:
    return isinstance(v, str) and v.strip() != ""


def _is_str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(i, str) for i in v)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _auth(c: _Checker, raw: Any, where: str) -> AuthConfig | None:
    table = c.table(raw, where)
    c.unknown(table, AUTH_KEYS, where)
    values = {}
    for key in AUTH_KEYS:
        if key == "scheme":
            values[key] = c.typed(table, key, where, _is_str, "the name of one of the document's securitySchemes")
        else:
            values[key] = c.typed(table, key, where, lambda v: isinstance(v, str) and bool(_ENV_NAME.match(v)), "the NAME of an environment variable (the secret itself never goes in this file)")
    if table and not any(values[k] for k in AUTH_KEYS[1:]):
        c.problem(where, "names no credentials; expected username_env and password_env, token_env or api_key_env")
    return AuthConfig(**values)


def _operations(c: _Checker, raw: Any, where: str) -> dict[str, dict[str, Any]]:
    operations = {}
    for selector, value in c.table(raw, where).items():
        key = _join(where, selector)
        table = c.table(value, key)
        c.unknown(table, OPERATION_KEYS, key)
        entry = {}
        kind = c.typed(table, "kind", key, lambda v: v in _OP_KINDS, "'read' or 'write'")
        if kind:
            entry["kind"] = kind
        for flag in ("destructive", "confirm"):
            if (v := c.typed(table, flag, key, _is_bool, "true or false")) is not None:
                entry[flag] = v
        operations[selector] = entry
    return operations


def _http_upstream(c: _Checker, name: str, table: dict[str, Any], where: str) -> HttpUpstreamConfig | None:
    c.unknown(table, HTTP_KEYS, where)
    openapi = c.path(table, "openapi", where, must_exist=True)
    base_url = c.typed(table, "base_url", where, lambda v: isinstance(v, str) and v.startswith(("http://", "https://")), "an http:// or https:// URL")
    auth = _auth(c, table["auth"], _join(where, "auth")) if "auth" in table else None
    timeout = c.typed(table, "timeout_s", where, lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= 3600, "a number of seconds above 0 and at most 3600", DEFAULT_TIMEOUT_S)
    retries = c.typed(table, "retries", where, lambda v: isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10, "an integer from 0 to 10", DEFAULT_RETRIES)
    read_only = c.typed(table, "read_only", where, _is_bool, "true or false", False)
    confirm = c.typed(table, "confirm", where, _is_str_list, "an array of HTTP methods, operationIds or 'METHOD /path' strings", ["DELETE"])
    for selector in confirm:
        # A word in capitals is read as a method: "DELET" would match no request and ask nobody.
        if METHOD_SELECTOR.match(selector) and selector not in HTTP_METHODS:
            c.problem(_join(where, "confirm"), f"{_quoted(selector)} is not an HTTP method ({', '.join(HTTP_METHODS)}); operationIds and 'METHOD /path' are matched as the document writes them")
    idempotency_header = c.typed(table, "idempotency_header", where, lambda v: isinstance(v, str) and bool(re.match(r"^[A-Za-z0-9-]+$", v)), "a header name such as 'Idempotency-Key'")
    operations = _operations(c, table["operations"], _join(where, "operations")) if "operations" in table else {}
    headers = c.string_map(table, "headers", where)
    for header, value in headers.items():
        if (why := header_problem(header, value)) is not None:
            c.problem(_join(where, "headers", header), why)
    if openapi is None:
        return None
    return HttpUpstreamConfig(
        name=name, openapi=openapi, base_url=base_url, auth=auth, headers=headers, timeout_s=float(timeout), retries=retries,
        read_only=read_only, confirm=tuple(confirm), idempotency_header=idempotency_header, operations=operations,
    )


def _mcp_server(c: _Checker, table: dict[str, Any], where: str) -> dict[str, Any]:
    """An MCP upstream in the shape of an ``mcpServers`` JSON entry."""
    if "command" in table and "url" in table:
        c.problem(where, "has both 'command' (a local server) and 'url' (a remote one); keep one")
        return {}
    if "command" in table:
        c.unknown(table, MCP_STDIO_KEYS + MCP_COMMON_KEYS, where)
        entry = {"command": c.typed(table, "command", where, _is_str, "the program that starts the server"), **_mcp_common(c, table, where)}
        if "args" in table:
            entry["args"] = c.typed(table, "args", where, _is_str_list, "an array of strings", [])
        if "env" in table:
            entry["env"] = c.string_map(table, "env", where)
        if "cwd" in table:
            cwd = c.path(table, "cwd", where, must_exist=True)
            entry["cwd"] = str(cwd) if cwd else None
        return entry
    c.unknown(table, MCP_HTTP_KEYS + MCP_COMMON_KEYS, where)
    entry = {"url": c.typed(table, "url", where, lambda v: isinstance(v, str) and v.startswith(("http://", "https://")), "an http:// or https:// URL"), **_mcp_common(c, table, where)}
    if "headers" in table:
        entry["headers"] = c.string_map(table, "headers", where)
    return entry


def _mcp_common(c: _Checker, table: dict[str, Any], where: str) -> dict[str, Any]:
    """What any MCP upstream may say of its tools: whether its hints are believed, which need a person's yes, which only read."""
    entry: dict[str, Any] = {}
    if "trust_annotations" in table:
        entry["trust_annotations"] = c.typed(table, "trust_annotations", where, _is_bool, "true or false", True)
    if "confirm" in table:
        confirm = c.typed(table, "confirm", where, _is_confirm, f"an array of the server's tool names, or one of {', '.join(map(repr, CONFIRM_GROUPS))}")
        if confirm is not None:
            entry["confirm"] = confirm
    if "reads" in table:
        entry["reads"] = c.typed(table, "reads", where, lambda v: _is_str_list(v) and all(v), "an array of the server's tool names that only read", [])
    return entry


def _is_confirm(v: Any) -> bool:
    return v in CONFIRM_GROUPS or (isinstance(v, list) and all(_is_str(i) for i in v))


def _upstreams(c: _Checker, raw: Any) -> tuple[dict[str, HttpUpstreamConfig], dict[str, dict[str, Any]]]:
    http, mcp = {}, {}
    for name, value in c.table(raw, "upstreams").items():
        where = _join("upstreams", name)
        if not _NAME.match(name):
            c.problem(where, "an upstream name is its namespace: lower-case letters, digits and '_', starting with a letter")
        table = c.table(value, where)
        if "openapi" in table:
            upstream = _http_upstream(c, name, table, where)
            if upstream is not None:
                http[name] = upstream
        elif "command" in table or "url" in table:
            mcp[name] = _mcp_server(c, table, where)
        else:
            c.problem(where, "says neither what API nor what server it is; expected 'openapi' (an HTTP API), 'command' (a local MCP server) or 'url' (a remote MCP server)")
    return http, mcp


def _explorer(c: _Checker, raw: Any) -> tuple[str | None, dict[str, str]]:
    table = c.table(raw, "explorer")
    c.unknown(table, EXPLORER_KEYS, "explorer")
    theme = c.typed(table, "theme", "explorer", _is_str, "the name of a Textual theme such as 'textual-dark'")
    keymap = {}
    for binding, keys in c.table(table.get("keymap", {}), "explorer.keymap").items():
        where = _join("explorer.keymap", binding)
        if not binding.startswith("opgate."):
            c.problem(where, "expected a binding id such as 'opgate.dry_run' (F1 in the explorer lists them)")
        elif not isinstance(keys, str) or not _KEYS.match(keys):
            c.problem(where, f"expected keys such as 'f8' or 'ctrl+r,f9', got {_quoted(keys)}")
        else:
            keymap[binding] = keys
    return theme, keymap


def check_config(data: Mapping[str, Any], file: Path) -> tuple[OpgateConfig | None, list[ConfigProblem]]:
    """The configuration in ``data`` (parsed TOML from ``file``) and every problem in it."""
    c = _Checker(file)
    c.unknown(data, TOP_KEYS, "")
    raw_database = data.get("database")
    if isinstance(raw_database, str) and raw_database.startswith(("postgresql://", "postgres://")):
        database: Path | str | None = raw_database  # a PostgreSQL URL, not a file
    else:
        database = c.path(data, "database", "", must_exist=False)
    context = c.typed(data, "context", "", _is_str, "the name of a context scope")
    search = c.typed(data, "search", "", lambda v: v in ("default", "semantic"), "the search ranker: 'default' or 'semantic'")
    mode = c.typed(data, "mode", "", lambda v: v in SERVE_MODES, "the tools opgate serve offers: " + ", ".join(repr(m) for m in SERVE_MODES))
    cache_dir = "off" if str(data.get("cache_dir", "")).strip().lower() == "off" else c.path(data, "cache_dir", "", must_exist=False)
    http, mcp = _upstreams(c, data["upstreams"]) if "upstreams" in data else ({}, {})
    theme, keymap = _explorer(c, data["explorer"]) if "explorer" in data else (None, {})
    serve = check_serve(c, data["serve"]) if "serve" in data else ServeConfig()
    if c.problems:
        return None, c.problems
    return OpgateConfig(
        source=file, http_upstreams=http, mcp_servers=mcp, database=database, context=context, search=search, mode=mode,
        theme=theme, keymap=keymap, serve=serve, cache_dir=cache_dir,
    ), []
