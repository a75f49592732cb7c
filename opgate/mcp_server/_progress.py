"""An upstream tool's progress, told to the client whose call it is (when the client sent a ``progressToken``)."""

from __future__ import annotations

import logging
from typing import Any

import anyio.from_thread
import anyio.lowlevel

from opgate.core.executors._progress import ProgressReporter, increasing

log = logging.getLogger(__name__)


def progress_to_client(ctx: Any) -> ProgressReporter | None:
    """A reporter that sends ``notifications/progress`` for this request, or None when the client asked for none.

    It is called from the call's worker thread, which waits while the
    notification is sent, so reports reach the client in order. It is made
    on the event loop, whose token it keeps: a batch's read steps report
    from pool threads that anyio did not start, and without the token they
    could not find the loop (every report was dropped).
    """
    meta = ctx.meta if isinstance(ctx.meta, dict) else {}
    token = meta.get("progress_token")
    if token is None or isinstance(token, bool):
        return None
    session, request_id = ctx.session, ctx.request_id
    loop = anyio.lowlevel.current_token()

    async def send(progress: float, total: float | None, message: str | None) -> None:
        await session.send_progress_notification(token, progress, total, message, related_request_id=request_id)

    def report(progress: float, total: float | None, message: str | None) -> None:
        try:
            anyio.from_thread.run(send, progress, total, message, token=loop)
        except Exception as exc:  # a client gone or a closed stream misses a report; the call goes on
            log.debug("could not send progress to the client: %s", exc)

    return increasing(report)
