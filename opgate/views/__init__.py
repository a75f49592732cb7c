"""Rich views of gateway answers, shared by the command line and the REPL."""

from ._envelope import render_diff, render_envelope, render_json
from ._help import render_help

__all__ = ["render_diff", "render_envelope", "render_help", "render_json"]
