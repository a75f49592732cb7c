"""Rich views of gateway answers, shared by the command line and the REPL."""

import typing as _typing

from opgate.core._lazy import lazy_attributes as _lazy_attributes

if _typing.TYPE_CHECKING:
    from ._envelope import render_diff, render_envelope, render_json
    from ._help import render_help

# Each view loads on first use: an exec prints an envelope and never needs the help tables (rich.table).
__getattr__ = _lazy_attributes(__name__, globals(), {
    "render_diff": "._envelope", "render_envelope": "._envelope", "render_json": "._envelope", "render_help": "._help",
})

__all__ = ["render_diff", "render_envelope", "render_help", "render_json"]
