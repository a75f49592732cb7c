"""One place where a failed worker becomes a visible error."""

from __future__ import annotations

from textual.worker import Worker, WorkerState


def describe_failure(worker: Worker) -> str:
    error = worker.error
    what = worker.name or "a background task"
    return f"{what} failed: {type(error).__name__}: {error}" if error else f"{what} failed"


class ReportsWorkerFailures:
    """Mixin for screens: a worker that ends in ERROR is shown as an error notification.

    ``Worker.StateChanged`` does not bubble, so each screen that starts workers
    mixes this in; the message and its look are decided here only.
    """

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.ERROR:
            self.app.notify(describe_failure(event.worker), title="Something went wrong", severity="error", timeout=12, markup=False)  # type: ignore[attr-defined]
            self.worker_failed(event.worker)

    def worker_failed(self, worker: Worker) -> None:
        """Screens may also reset what was waiting for the worker."""
