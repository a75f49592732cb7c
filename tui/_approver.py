"""The person answers the gateway from a modal: confirmations, and an upstream's questions.

``gw.exec`` runs in a thread worker. For an op that needs confirmation the
dispatcher calls ``gw.approver(request)`` on that thread and waits for a
bool; an upstream MCP server that asks the person something (elicitation)
reaches ``gw.asker(question)`` the same way and waits for the answer. Each
hands its modal to the UI thread with ``App.call_from_thread`` (``push_screen``
with a callback, which the UI thread calls on dismiss) and blocks its own
thread on a ``threading.Event`` until the answer comes. It never blocks the UI
thread, and it gives up (no, or declined) if the worker is cancelled or the
app stops, so a thread is never left waiting forever.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from textual.worker import NoActiveWorker, get_current_worker

POLL_SECONDS = 0.1


def answer_in_modal(app: Any, make_screen: Callable[[], Any], *, nobody: Any) -> Any:
    """Push the screen ``make_screen()`` makes on the UI thread and wait for what it dismisses with."""
    answered = threading.Event()
    answer: dict[str, Any] = {"value": nobody}

    def receive(result: Any) -> None:
        answer["value"] = result
        answered.set()

    try:
        worker = get_current_worker()
    except NoActiveWorker:  # a batch runs steps on its own pool threads
        worker = None
    try:
        app.call_from_thread(lambda: app.push_screen(make_screen(), receive))
    except RuntimeError:  # the app is not running, or this is the UI thread: nobody can answer
        return nobody
    while not answered.wait(POLL_SECONDS):
        if (worker is not None and worker.is_cancelled) or not app.is_running:
            return nobody
    return answer["value"]


class ModalApprover:
    """``gw.approver`` for the explorer."""

    def __init__(self, app: Any):
        self._app = app

    def __call__(self, request: Any) -> bool:
        from .screens.confirm_run import ConfirmRunScreen

        return bool(answer_in_modal(
            self._app, lambda: ConfirmRunScreen(request.op, dict(request.args), request.preview, summary=request.summary), nobody=False,
        ))


class ModalAsker:
    """``gw.asker`` for the explorer: an upstream's question as a small form; Escape declines."""

    def __init__(self, app: Any):
        self._app = app

    def __call__(self, question: Any) -> dict[str, Any] | None:
        from .screens.elicit import ElicitScreen

        return answer_in_modal(self._app, lambda: ElicitScreen(question), nobody=None)
