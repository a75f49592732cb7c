"""Logging for the command line: one short line per problem on stderr, tracebacks only when asked.

The core logs unexpected failures with their tracebacks (for operators); a
person at a terminal should see one readable line. ``OPGATE_DEBUG=1`` keeps
the tracebacks.

Importing logging costs a one-shot command about a tenth of its work
(bench/bench_cli.py), and a command that goes well logs nothing: the core's
loggers (``core/_log.py``) import it when they first log. So the handler is
installed when logging is first imported, by whichever module that is, and
at once when it already is.
"""

from __future__ import annotations

import os
import sys
from typing import Any


def _configure() -> None:
    import logging

    class Brief(logging.Formatter):
        def formatException(self, exc_info) -> str:  # noqa: N802 - logging's name
            return ""

        def format(self, record: logging.LogRecord) -> str:
            text = super().format(record)
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
            return text.rstrip()

    class CurrentStderr(logging.StreamHandler):
        """Writes to whatever ``sys.stderr`` is when a line is logged, as logging's own last resort does.

        Holding the stream found at configuration time wrote to a closed
        stream once something had swapped stderr and closed it (a test's
        capture, an embedding program), and logging printed "Logging error".
        """

        def __init__(self) -> None:
            logging.Handler.__init__(self)

        @property
        def stream(self) -> Any:  # type: ignore[override]
            return sys.stderr

    debug = os.environ.get("OPGATE_DEBUG") not in (None, "", "0")
    handler = CurrentStderr()
    handler.setFormatter(logging.Formatter("opgate: %(levelname)s %(message)s") if debug else Brief("opgate: %(message)s"))
    root = logging.getLogger("opgate")
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if debug else logging.WARNING)
    root.propagate = False


class _ConfigureWhenImported:
    """A finder that lets the usual finders find logging, then configures it as soon as it has loaded."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "logging":
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec("logging")
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenConfigure(spec.loader)
        return spec


class _ThenConfigure:
    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: Any) -> Any:
        return self._loader.create_module(spec)

    def exec_module(self, module: Any) -> None:
        self._loader.exec_module(module)
        _configure()


def configure_logging() -> None:
    """Send the core's log lines to stderr, briefly: now if logging is loaded, else when it first is."""
    if "logging" in sys.modules:
        _configure()
    elif not any(isinstance(finder, _ConfigureWhenImported) for finder in sys.meta_path):
        sys.meta_path.insert(0, _ConfigureWhenImported())
