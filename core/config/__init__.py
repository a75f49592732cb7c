"""opgate's one configuration file, ``opgate.toml``: found, read once, checked whole.

:func:`load_config` finds it (``--config``, ``./opgate.toml``, the user's
config folder) and returns an :class:`OpgateConfig`; any problem raises
:class:`ConfigError`, which lists every problem with its file and key.
"""

from ._check import ConfigError, ConfigProblem, check_config
from ._file import FILE_NAME, find_config, load_config, read_config, user_config_path
from ._model import SERVE_MODES, AuthConfig, HttpUpstreamConfig, OpgateConfig

__all__ = [
    "FILE_NAME",
    "SERVE_MODES",
    "AuthConfig",
    "ConfigError",
    "ConfigProblem",
    "HttpUpstreamConfig",
    "OpgateConfig",
    "check_config",
    "find_config",
    "load_config",
    "read_config",
    "user_config_path",
]
