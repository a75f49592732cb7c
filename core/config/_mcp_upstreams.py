"""Checking ``opgate.toml``'s MCP upstreams as the commands will read them.

The file's checker knows an MCP entry's shape (command or url, args, env,
headers); what the upstream reader adds (header names and values HTTP can
carry, environment expansion) was found only when a command started, which
then stopped, after ``opgate config check`` had said ok.
"""

from __future__ import annotations

from ._check import ConfigProblem
from ._model import OpgateConfig


def check_mcp_upstreams(config: OpgateConfig) -> list[ConfigProblem]:
    """The problems the MCP upstream reader finds in ``config``'s MCP upstreams (nothing is started)."""
    if not config.mcp_servers:
        return []
    from ..executors.mcp._config import UpstreamConfigError, load_upstream_configs

    file = str(config.source) if config.source else "opgate.toml"
    try:
        load_upstream_configs([], configured=config.mcp_servers, configured_source=file)
    except UpstreamConfigError as exc:
        return [_problem(file, text) for text in exc.problems]
    return []


def _problem(file: str, text: str) -> ConfigProblem:
    # The reader says "FILE: KEY: message"; the file is known, so the key is what follows it.
    key, _, message = text.removeprefix(f"{file}: ").partition(": ")
    return ConfigProblem(file, key, message) if message else ConfigProblem(file, "", text)
