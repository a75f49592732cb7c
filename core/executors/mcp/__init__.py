"""Upstream MCP servers: opgate in front of the servers people already run.

Configured with the file MCP clients already use (:mod:`._config`), reached
with the official SDK on one background event loop (:mod:`._loop`,
:mod:`._connection`), listed lazily and reviewed against pinned definitions
(:mod:`._upstreams`, :mod:`._pins`), and called through :class:`McpExecutor`.

Importing this package does not import the SDK: that happens when the first
connection is made. See docs/upstreams.md.
"""

from ._config import HTTP, STDIO, UpstreamConfig, UpstreamConfigError, load_upstream_configs
from ._executor import McpExecutor
from ._upstreams import Upstreams

__all__ = ["HTTP", "STDIO", "McpExecutor", "UpstreamConfig", "UpstreamConfigError", "Upstreams", "load_upstream_configs"]
