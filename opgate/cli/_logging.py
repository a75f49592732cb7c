"""Logging for the command line: one short line per problem on stderr, tracebacks only when asked.

The core logs unexpected failures with their tracebacks (for operators); a
person at a terminal should see one readable line. ``OPGATE_DEBUG=1`` keeps
the tracebacks.
"""

from __future__ import annotations

import logging
import os
import sys


class _Brief(logging.Formatter):
    def formatException(self, exc_info) -> str:  # noqa: N802 - logging's name
        return ""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if record.exc_info and record.exc_info[1] is not None:
            text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
        return text.rstrip()


def configure_logging() -> None:
    debug = os.environ.get("OPGATE_DEBUG") not in (None, "", "0")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("opgate: %(levelname)s %(message)s") if debug else _Brief("opgate: %(message)s"))
    root = logging.getLogger("opgate")
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if debug else logging.WARNING)
    root.propagate = False
