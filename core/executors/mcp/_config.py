"""Upstream MCP servers, read from the files MCP clients already use.

Two shapes are accepted:

- Claude Desktop and Cursor: ``{"mcpServers": {NAME: {"command", "args", "env", "cwd"}}}``
  for a server opgate starts over stdio, or ``{NAME: {"url", "headers"}}`` for
  one it reaches over streamable HTTP;
- VS Code: ``{"servers": {NAME: {"type": "stdio" | "http", ...}}}`` with the same keys.

Each server may also say ``"trust_annotations": false``: its tools' hints
(``readOnlyHint`` and the others) are then ignored and every tool is a write.
``"confirm"`` names the tools that need a person's yes before they run: a
list of tool names, ``"destructive"`` (every tool that may destroy) or
``"writes"`` (every tool that is not a read). ``"reads"`` names tools the
person vouches only read, for servers that give no hints (MCP then reads
every tool as a destructive write).

``${VAR}`` and ``${env:VAR}`` in ``env`` and ``headers`` values are read from
the environment. Files are read once and validated whole: every problem is
reported with its file and key, and an unknown key is an error, not a
silent default. The values of ``env`` and ``headers`` are secrets: they are
kept out of every repr and handed to the redactor.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...config._headers import header_problem
from .._redact import mask_command_line, mask_url_secrets, redact

STDIO = "stdio"
HTTP = "http"
# A namespace the built-in catalogue owns cannot be an upstream's.
RESERVED_NAMES = frozenset({"onto", "util"})
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_VARIABLE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")
_STDIO_KEYS = frozenset({"command", "args", "env", "cwd"})
_HTTP_KEYS = frozenset({"url", "headers"})
_COMMON_KEYS = frozenset({"type", "trust_annotations", "confirm", "reads"})
CONFIRM_GROUPS = ("destructive", "writes")
_TYPES = {STDIO: STDIO, HTTP: HTTP, "streamable-http": HTTP, "streamableHttp": HTTP}


class UpstreamConfigError(ValueError):
    """One or more problems in upstream configuration files, each with its file and key."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class UpstreamConfig:
    """One upstream MCP server: how to reach it and how far to trust what it says."""

    name: str
    transport: str
    source: str
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict, repr=False)
    trust_annotations: bool = True
    confirm: str | tuple[str, ...] = ()
    """Tools that need a person's confirmation: their names, or ``"destructive"`` or ``"writes"``."""
    reads: tuple[str, ...] = ()
    """Tools the person configuring the server vouches only read, whatever its hints say (or leave unsaid)."""

    def needs_confirmation(self, tool: str, *, destructive: bool, writes: bool) -> bool:
        """Whether the configuration asks a person's yes before ``tool`` (of that kind) runs."""
        if isinstance(self.confirm, str):
            return destructive if self.confirm == "destructive" else writes
        return tool in self.confirm

    @property
    def secrets(self) -> tuple[str, ...]:
        """Values that must never be shown: every environment and header value given for it."""
        return tuple(v for v in (*self.env.values(), *self.headers.values()) if v)

    @property
    def where(self) -> str:
        """How it is reached, fit to show: the command line or the URL, with user-info, query strings, secret
        flags' values (``--token X``) and the configured env and header values masked."""
        if self.transport == HTTP:
            return redact(mask_url_secrets(str(self.url)), self.secrets)
        return mask_command_line(self.command, self.args, self.secrets)


def load_upstream_configs(
    paths: Iterable[str | Path], environ: Mapping[str, str] | None = None, *, configured: Mapping[str, Mapping[str, Any]] | None = None, configured_source: str = "opgate.toml",
) -> list[UpstreamConfig]:
    """Every upstream in ``paths`` (and ``configured``: opgate.toml's MCP upstreams, by name, in the
    ``mcpServers`` entry shape), or :class:`UpstreamConfigError` listing every problem found."""
    environ = os.environ if environ is None else environ
    configs: list[UpstreamConfig] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    from_toml = [c for c in (_server(configured_source, f"upstreams.{name}", name, entry, environ, problems) for name, entry in (configured or {}).items()) if c is not None]
    for found in (from_toml, *(_read_file(_expanded(path), environ, problems) for path in paths)):
        for config in found:
            if config.name in seen:
                problems.append(f"{config.source}: mcpServers.{config.name}: the name {config.name!r} is already used by {seen[config.name]}; each upstream needs its own name")
                continue
            seen[config.name] = config.source
            configs.append(config)
    if problems:
        raise UpstreamConfigError(problems)
    return configs


def _expanded(path: str | Path) -> Path:
    try:
        return Path(path).expanduser()
    except RuntimeError:  # "~someone/..." for a user this machine does not know: read as it is, and not found
        return Path(path)


def _read_file(path: Path, environ: Mapping[str, str], problems: list[str]) -> list[UpstreamConfig]:
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(f"{source}: no such file")
        return []
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # ValueError: a NUL in the path
        problems.append(f"{source}: cannot read: {exc}")
        return []
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(f"{source}: not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}")
        return []
    except RecursionError:
        problems.append(f"{source}: not read: arrays or objects nested too deeply")
        return []
    if not isinstance(data, dict):
        problems.append(f"{source}: expected an object with \"mcpServers\" (or VS Code's \"servers\"), found {_type_name(data)}")
        return []
    tops = [key for key in ("mcpServers", "servers") if key in data]
    unknown = sorted(set(data) - {"mcpServers", "servers", "inputs"})
    for key in unknown:
        problems.append(f"{source}: {key}: unknown key; expected \"mcpServers\" or \"servers\"")
    if not tops:
        if not unknown:
            problems.append(f"{source}: no \"mcpServers\" (or VS Code's \"servers\") object")
        return []
    configs = []
    for top in tops:
        servers = data[top]
        if not isinstance(servers, dict):
            problems.append(f"{source}: {top}: expected an object of servers by name, found {_type_name(servers)}")
            continue
        for name, entry in servers.items():
            config = _server(source, f"{top}.{name}", name, entry, environ, problems)
            if config is not None:
                configs.append(config)
    return configs


def _server(source: str, key: str, name: Any, entry: Any, environ: Mapping[str, str], problems: list[str]) -> UpstreamConfig | None:
    before = len(problems)

    def problem(where: str, message: str) -> None:
        problems.append(f"{source}: {where}: {message}")

    if not _NAME.match(str(name)):
        problem(key, "an upstream's name becomes its namespace: lowercase letters, digits and underscores, starting with a letter (for example \"memory\" or \"git_hub\")")
    elif name in RESERVED_NAMES:
        problem(key, f"{name!r} is the built-in catalogue's namespace; choose another name")
    if not isinstance(entry, dict):
        problem(key, f"expected an object, found {_type_name(entry)}")
        return None
    declared = entry.get("type")
    if declared is not None and declared not in _TYPES:
        problem(f"{key}.type", f"expected \"stdio\" or \"http\", found {declared!r}")
    transport = _TYPES.get(declared) if declared is not None else (HTTP if "url" in entry else STDIO)
    allowed = _COMMON_KEYS | (_HTTP_KEYS if transport == HTTP else _STDIO_KEYS)
    for extra in sorted(set(entry) - allowed):
        hint = "only servers reached over HTTP (with \"url\") take it" if extra in _HTTP_KEYS else "only servers started over stdio (with \"command\") take it" if extra in _STDIO_KEYS else f"known keys: {', '.join(sorted(allowed))}"
        problem(f"{key}.{extra}", f"unknown key; {hint}")
    trust = entry.get("trust_annotations", True)
    if not isinstance(trust, bool):
        problem(f"{key}.trust_annotations", f"expected true or false, found {_type_name(trust)}")
    confirm = entry.get("confirm", [])
    if not (confirm in CONFIRM_GROUPS or (isinstance(confirm, list) and all(isinstance(t, str) and t for t in confirm))):
        problem(f"{key}.confirm", f"expected a list of the server's tool names, or \"destructive\" or \"writes\"; found {_type_name(confirm)} {json.dumps(confirm)[:80]}")
    reads = entry.get("reads", [])
    if not (isinstance(reads, list) and all(isinstance(t, str) and t for t in reads)):
        problem(f"{key}.reads", f"expected a list of the server's tool names that only read; found {_type_name(reads)} {json.dumps(reads)[:80]}")
        reads = []
    if transport == HTTP:
        url = entry.get("url")
        if not isinstance(url, str) or not re.match(r"^https?://", url):
            problem(f"{key}.url", "expected an http:// or https:// URL")
        headers = _strings(entry.get("headers", {}), f"{key}.headers", environ, problem)
        _check_headers(headers, f"{key}.headers", problem)
        fields: dict[str, Any] = {"url": url, "headers": headers}
    else:
        command = entry.get("command")
        if not isinstance(command, str) or not command.strip():
            problem(f"{key}.command", "expected the command that starts the server (a string), or \"url\" for a server reached over HTTP")
        args = entry.get("args", [])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            problem(f"{key}.args", "expected a list of strings")
            args = []
        cwd = entry.get("cwd")
        if cwd is not None and not isinstance(cwd, str):
            problem(f"{key}.cwd", "expected a folder path (a string)")
        env = _strings(entry.get("env", {}), f"{key}.env", environ, problem)
        fields = {"command": command, "args": tuple(args), "env": env, "cwd": cwd}
    if len(problems) > before:
        return None
    return UpstreamConfig(name=name, transport=transport, source=source, trust_annotations=trust, confirm=confirm if isinstance(confirm, str) else tuple(confirm), reads=tuple(reads), **fields)


def _strings(value: Any, key: str, environ: Mapping[str, str], problem) -> dict[str, str]:
    """An object of string values, with ``${VAR}`` read from the environment."""
    if not isinstance(value, dict):
        problem(key, f"expected an object of names to strings, found {_type_name(value)}")
        return {}
    result = {}
    for name, raw in value.items():
        if not isinstance(raw, str):
            problem(f"{key}.{name}", f"expected a string, found {_type_name(raw)}")
            continue
        missing = [m.group(1) for m in _VARIABLE.finditer(raw) if m.group(1) not in environ]
        if missing:
            problem(f"{key}.{name}", f"the environment variable {missing[0]} is not set")
            continue
        if "${" in _VARIABLE.sub("", raw):
            problem(f"{key}.{name}", "only ${VAR} and ${env:VAR} are read from the environment; other ${...} forms (VS Code's ${input:...}) are not supported")
            continue
        result[name] = _VARIABLE.sub(lambda m: environ[m.group(1)], raw)
    return result


def _check_headers(headers: dict[str, str], key: str, problem) -> None:
    for name, value in headers.items():
        if (why := header_problem(name, value)) is not None:
            problem(f"{key}.{name}", why)


def _type_name(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(type(value), type(value).__name__)
