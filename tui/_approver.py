"""The confirmation approver: the Gateway calls it from a worker thread; the person answers in a modal.

``gw.exec`` runs in a thread worker, and for an op that needs confirmation the
dispatcher calls ``gw.approver(request)`` on that thread and waits for a bool.
The approver hands the modal to the UI thread with ``App.call_from_thread``
(``push_screen`` with a callback, which the UI thread calls on dismiss) and
blocks its own thread on a ``threading.Event`` until the answer comes. It
never blocks the UI thread, and it gives up (answers no) if the worker is
cancelled or the app stops, so a thread is never left waiting forever.
"""

from __future__ import annotations

import threading
from typing import Any

from textual.worker import NoActiveWorker, get_current_worker

POLL_SECONDS = 0.1


class ModalApprover:
    """``gw.approver`` for the explorer."""

    def __init__(self, app: Any):
        self._app = app

    def __call__(self, request: Any) -> bool:
        from .screens.confirm_run import ConfirmRunScreen

        answered = threading.Event()
        answer = {"ok": False}

        def receive(result: bool | None) -> None:
            answer["ok"] = bool(result)
            answered.set()

        def ask() -> None:
            screen = ConfirmRunScreen(request.op, dict(request.args), request.preview, summary=request.summary)
            self._app.push_screen(screen, receive)

        try:
            worker = get_current_worker()
        except NoActiveWorker:  # a batch runs steps on its own pool threads
            worker = None
        try:
            self._app.call_from_thread(ask)
        except RuntimeError:  # the app is not running, or this is the UI thread: nobody can answer
            return False
        while not answered.wait(POLL_SECONDS):
            if (worker is not None and worker.is_cancelled) or not self._app.is_running:
                return False
        return answer["ok"]
