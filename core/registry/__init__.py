"""The op registry: tool definitions named, checked and indexed."""

from ._build import build_registry, summarize
from ._exported import NAME_LIMIT, exported_name, exported_op_name
from ._naming import NamingRules, OpName, default_rules, name_tool, singular, words_of
from ._record import OpRecord
from ._registry import Registry

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
