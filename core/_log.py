"""Loggers that import logging when they first log.

Importing logging (with traceback, tokenize, string and weakref) costs a
one-shot command line about a tenth of its work, and a call that goes well
logs nothing. A module that logs only when something goes wrong keeps a
:class:`LazyLogger` instead of ``logging.getLogger(name)``; its first method
call imports logging and answers with the real logger's method, so records
carry the caller's file and line as before. The command line configures
logging when it is first imported (``opgate/cli/_logging.py``).
"""

from __future__ import annotations

from typing import Any


class LazyLogger:
    """``logging.getLogger(name)``, looked up on first use."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        import logging

        return getattr(logging.getLogger(self._name), attribute)


__all__ = ["LazyLogger"]
