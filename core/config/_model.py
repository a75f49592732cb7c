"""The configuration as typed values: what ``opgate.toml`` says once it has been checked."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._record import field, record
from ._serve import ServeConfig

if TYPE_CHECKING:
    from ..catalog.openapi import ApiPolicy

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_RETRIES = 2
METHOD_SELECTOR = re.compile(r"^[A-Z]+$")
"""A ``confirm`` entry in capitals is an HTTP method; any other names an operation."""
# What ``opgate serve`` can offer: the same names as ``ToolRouter``'s modes (a test keeps them equal).
SERVE_MODES = ("gateway", "hybrid", "full", "deferred", "protocol")


@record(frozen=True)
class AuthConfig:
    """Where an upstream's credentials come from: the names of environment variables, never the values.

    ``scheme`` picks one of the document's ``securitySchemes`` when it has
    several; otherwise the first one the credentials fit is used.
    """

    scheme: str | None = None
    username_env: str | None = None
    password_env: str | None = None
    token_env: str | None = None
    api_key_env: str | None = None

    def env_names(self) -> list[str]:
        return [n for n in (self.username_env, self.password_env, self.token_env, self.api_key_env) if n]


@record(frozen=True)
class HttpUpstreamConfig:
    """One HTTP API upstream: its OpenAPI document and how to reach it."""

    name: str
    openapi: Path
    base_url: str | None = None
    auth: AuthConfig | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = DEFAULT_TIMEOUT_S
    retries: int = DEFAULT_RETRIES
    read_only: bool = False
    # HTTP methods, operationIds or "METHOD /path" that need a person's confirmation.
    confirm: tuple[str, ...] = ("DELETE",)
    # Sent with a write's idempotency key when the API honours one (Stripe's "Idempotency-Key").
    idempotency_header: str | None = None
    operations: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def policy(self) -> ApiPolicy:
        # The OpenAPI importer is loaded only by configurations that name an HTTP API: every command reads this file.
        from ..catalog.openapi import ApiPolicy

        methods = frozenset(c for c in self.confirm if METHOD_SELECTOR.match(c))
        operations = {k: dict(v) for k, v in self.operations.items()}
        for selector in self.confirm:
            if not METHOD_SELECTOR.match(selector):
                operations.setdefault(selector, {}).setdefault("confirm", True)
        return ApiPolicy(read_only=self.read_only, confirm_methods=methods, operations=operations)


@record(frozen=True)
class OpgateConfig:
    """The whole configuration. ``source`` is the file it came from (``None``: no file, the defaults)."""

    source: Path | None = None
    http_upstreams: Mapping[str, HttpUpstreamConfig] = field(default_factory=dict)
    # MCP upstreams in the shape of an ``mcpServers`` JSON entry (command/args/env/cwd or url/headers).
    mcp_servers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    database: Path | str | None = None  # a file, or a postgresql:// URL
    context: str | None = None
    search: str | None = None  # the search ranker: "default" or "semantic"
    mode: str | None = None  # the tools ``opgate serve`` offers (SERVE_MODES); None: gateway
    cache_dir: Path | str | None = None  # where built registries are cached; "off": nowhere (OPGATE_CACHE_DIR wins)
    theme: str | None = None
    keymap: Mapping[str, str] = field(default_factory=dict)
    serve: ServeConfig = field(default_factory=ServeConfig)

    def policies(self) -> dict[str, ApiPolicy]:
        return {name: upstream.policy() for name, upstream in self.http_upstreams.items()}
