"""The op registry: tool definitions named, checked and indexed."""

from ._build import build_registry, summarize
from ._naming import NamingRules, OpName, default_rules, name_tool, singular, words_of
from ._record import OpRecord
from ._registry import Registry

__all__ = [
    "NamingRules",
    "OpName",
    "OpRecord",
    "Registry",
    "build_registry",
    "default_rules",
    "name_tool",
    "singular",
    "summarize",
    "words_of",
]
