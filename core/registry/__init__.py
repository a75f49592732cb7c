"""The op registry: tool definitions named, checked and indexed."""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes
from ._exported import NAME_LIMIT, exported_name, exported_op_name
from ._naming import NamingRules, OpName, default_rules, name_tool, singular, words_of
from ._record import OpRecord
from ._registry import Registry

if _typing.TYPE_CHECKING:
    from ._build import build_registry, summarize

# Building reads catalogues (catalog._sources), which itself names tools through
# this package: loading _build on first use keeps that cycle from depending on
# which package happened to be imported first.
_LAZY = {"build_registry": "._build", "summarize": "._build"}

__all__ = [
    "NAME_LIMIT",
    "NamingRules",
    "OpName",
    "OpRecord",
    "Registry",
    "build_registry",
    "default_rules",
    "exported_name",
    "exported_op_name",
    "name_tool",
    "singular",
    "summarize",
    "words_of",
]

__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)
