"""JSON text from an encoder made once, for the texts every call makes.

``json.JSONEncoder(...).encode`` makes a new C encoder object on every call
(``iterencode`` builds it from the options each time), which costs more than
encoding a small object: three times the work of encoding ``{"task_id":
"..."}``. :func:`encoder_made_once` builds the C encoder once and reuses it.

It never checks for circular references (the check's table would be shared
by every thread): a cycle ends in ``RecursionError``, as it does for an
encoder made with ``check_circular=False``. Use it only where that is what
the caller had, or where values cannot hold a cycle (flat arguments).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

try:
    from _json import make_encoder as _c_make_encoder
except ImportError:  # an interpreter without the C accelerator: the plain encoder, made once
    _c_make_encoder = None


def encoder_made_once(*, sort_keys: bool = False, ensure_ascii: bool = True, separators: tuple[str, str] | None = None,
                      default: Callable[[Any], Any] | None = None) -> Callable[[Any], str]:
    """``json.JSONEncoder(check_circular=False, ...).encode`` with these options, giving the same text, made once.

    """
    options = json.JSONEncoder(sort_keys=sort_keys, ensure_ascii=ensure_ascii, separators=separators, default=default, check_circular=False)
    if _c_make_encoder is None:
        return options.encode
    encode_text = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    chunks = _c_make_encoder(
        None, options.default, encode_text, None, options.key_separator, options.item_separator, sort_keys, False, True,
    )
    join = "".join

    def encode(value: Any) -> str:
        return join(chunks(value, 0))

    return encode


class JsonText(str):
    """Text that is JSON already (a call-log entry's arguments, encoded for their digest): stored as it is, not encoded again."""

    __slots__ = ()


__all__ = ["JsonText", "encoder_made_once"]
