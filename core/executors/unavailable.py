"""Ops that nothing can run here: the failure that explains why.

A ``tools/list`` file with no server behind it still gives help, schemas and
search pointers; exec answers PERMISSION_DENIED (a person must connect the
server; retrying will not help) with ``details.runnable = false`` and the
reason, never INTERNAL.
"""

from __future__ import annotations

from ..exec._errors import PermissionDenied
from ..registry._record import OpRecord


class NotRunnable(PermissionDenied):
    """The op exists for browsing only."""


def not_runnable(record: OpRecord) -> NotRunnable:
    reason = record.binding.why_not_runnable
    return NotRunnable(
        f"{record.op} cannot run in this gateway: {reason}. Its help and schema are available; "
        "to run it, configure the server it comes from (see `opgate upstreams`).",
        runnable=False,
        reason=reason,
    )
