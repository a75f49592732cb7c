"""opgate's one configuration file, ``opgate.toml``: found, read once, checked whole."""

from ._model import AuthConfig, HttpUpstreamConfig, OpgateConfig

__all__ = ["AuthConfig", "HttpUpstreamConfig", "OpgateConfig"]
