"""The discovery protocol: navigate categories, search, expand a tool, call it through exec."""

from .._cursor import BadCursor, make_cursor, read_cursor
from ._protocol import DEFAULT_LIMIT, MAX_LIMIT, PROTOCOL_SCHEMAS, Discovery

__all__ = ["BadCursor", "DEFAULT_LIMIT", "Discovery", "MAX_LIMIT", "PROTOCOL_SCHEMAS", "make_cursor", "read_cursor"]
