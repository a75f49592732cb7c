"""The names ops are offered under to providers, and the way back from them.

Providers limit tool names to 64 characters of ``[a-zA-Z0-9_-]``. A longer
name is never cut into a collision: it keeps its start and ends with a
stable hash of the whole name, so the same op always gets the same name
and two ops never share one.
"""

from __future__ import annotations

import hashlib
import re

NAME_LIMIT = 64
_NAME_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")
_HASH_LENGTH = 8


def exported_name(name: str, limit: int = NAME_LIMIT) -> str:
    """``name`` made provider-safe; over ``limit`` characters, shortened with a hash suffix of the whole name."""
    safe = _NAME_UNSAFE.sub("_", name)
    if len(safe) <= limit:
        return safe
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:_HASH_LENGTH]
    return f"{safe[: limit - _HASH_LENGTH - 1]}_{digest}"


def exported_op_name(op: str, limit: int = NAME_LIMIT) -> str:
    """An op as a tool name: dots become double underscores (``onto.task.list`` -> ``onto__task__list``)."""
    return exported_name(op.replace(".", "__"), limit)
