"""The discovery protocol: navigate categories, search, expand a tool, call it through exec."""

from ._cursor import BadCursor, make_cursor, read_cursor
from ._protocol import DEFAULT_LIMIT, MAX_LIMIT, Discovery

__all__ = ["BadCursor", "DEFAULT_LIMIT", "Discovery", "MAX_LIMIT", "make_cursor", "read_cursor"]
