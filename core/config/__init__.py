"""opgate's one configuration file, ``opgate.toml``: found, read once, checked whole.

:func:`load_config` finds it (``--config``, ``./opgate.toml``, the user's
config folder) and returns an :class:`OpgateConfig`; any problem raises
:class:`ConfigError`, which lists every problem with its file and key.

Names load their module on first use: a command line with no file never
imports the checker (``_check``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_attributes

if TYPE_CHECKING:
    from ._check import ConfigError, ConfigProblem, check_config
    from ._context import check_context
    from ._documents import check_documents
    from ._mcp_upstreams import check_mcp_upstreams
    from ._explorer_keys import EXPLORER_BINDING_IDS, EXPLORER_KEY_SECTIONS, ExplorerKey, unknown_bindings
    from ._file import FILE_NAME, find_config, load_config, read_config, user_config_path
    from ._model import SERVE_MODES, AuthConfig, HttpUpstreamConfig, OpgateConfig
    from ._serve import DEFAULT_RATE_BURST, DEFAULT_RATE_LIMIT, ServeConfig, is_host_name, is_public_url

_WHERE = {
    **dict.fromkeys(("ConfigError", "ConfigProblem", "check_config"), "._check"),
    "check_context": "._context",
    "check_documents": "._documents",
    "check_mcp_upstreams": "._mcp_upstreams",
    **dict.fromkeys(("EXPLORER_BINDING_IDS", "EXPLORER_KEY_SECTIONS", "ExplorerKey", "unknown_bindings"), "._explorer_keys"),
    **dict.fromkeys(("FILE_NAME", "find_config", "load_config", "read_config", "user_config_path"), "._file"),
    **dict.fromkeys(("SERVE_MODES", "AuthConfig", "HttpUpstreamConfig", "OpgateConfig"), "._model"),
    **dict.fromkeys(("DEFAULT_RATE_BURST", "DEFAULT_RATE_LIMIT", "ServeConfig", "is_host_name", "is_public_url"), "._serve"),
}
__getattr__ = lazy_attributes(__name__, globals(), _WHERE)

__all__ = [
    "DEFAULT_RATE_BURST",
    "DEFAULT_RATE_LIMIT",
    "EXPLORER_BINDING_IDS",
    "EXPLORER_KEY_SECTIONS",
    "FILE_NAME",
    "SERVE_MODES",
    "AuthConfig",
    "ConfigError",
    "ConfigProblem",
    "ExplorerKey",
    "HttpUpstreamConfig",
    "OpgateConfig",
    "ServeConfig",
    "check_config",
    "check_context",
    "check_documents",
    "check_mcp_upstreams",
    "find_config",
    "is_host_name",
    "is_public_url",
    "load_config",
    "read_config",
    "unknown_bindings",
    "user_config_path",
]
