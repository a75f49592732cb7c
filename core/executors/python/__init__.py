"""Tool-folder handlers: ``handler.py`` runs in worker processes, never in the gateway's.

Trust model. A handler is the user's own code and runs with the user's
rights: same user, same filesystem, same environment variables, same
network. This is not a sandbox. What the worker processes give is
isolation of *failure*: a handler that crashes the interpreter, hangs,
leaks memory or changes global state cannot take the gateway down with it,
and the hard timeout really stops it (its worker is killed and replaced).
A handler is imported only when its op first runs, and only in a worker.

Handler authors import :class:`~opgate.tool.ToolError` and
:class:`~opgate.tool.ErrorType` from :mod:`opgate.tool`; the table from their
error types to envelope codes is :data:`ERROR_TYPES`.
"""

from ._error_types import ERROR_TYPES, HandlerFailure
from ._executor import PythonHandlerExecutor

__all__ = ["ERROR_TYPES", "HandlerFailure", "PythonHandlerExecutor"]
