"""Checking ``opgate.toml``'s ``context`` against the context scopes there are.

The file's parser cannot know them; without this check ``opgate config
check`` said ok to a context that then stopped every command.
"""

from __future__ import annotations

from ._check import ConfigProblem
from ._model import OpgateConfig


def check_context(config: OpgateConfig) -> list[ConfigProblem]:
    """A problem when ``config.context`` names no built-in context scope."""
    if config.context is None:
        return []
    from .._builtin import builtin_contexts

    known = builtin_contexts().names
    if config.context in known:
        return []
    from ..echo_text import quoted

    file = str(config.source) if config.source else "opgate.toml"
    return [ConfigProblem(file, "context", f"unknown context {quoted(config.context)}; known: {', '.join(known) or 'none'}")]
